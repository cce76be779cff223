import type {
  AgentIdentity,
  Denial,
  RunActivity,
  ToolCallOutcome,
  ToolCallRecord,
} from "../../../kernel/index.ts";
import type { CallOutcome, CallResult } from "../tool-calls/invoke.ts";

/**
 * What every agent of a session did, kept by agent id (one log per session, passed down like the
 * usage tracker): turns, tool calls with their outcome, denials, stumbles, elided context.
 * `activity(id)` reports an agent's subtree: itself and every agent whose id starts with `id/`.
 */
export class RunLog {
  private readonly turns = new Map<string, number>();
  private readonly calls: ToolCallRecord[] = [];
  private readonly denials: Denial[] = [];
  private readonly stumbles = new Map<string, number>();
  private readonly elided = new Set<string>();

  /** One model turn of `agent`. */
  turn(agent: string): void {
    this.turns.set(agent, (this.turns.get(agent) ?? 0) + 1);
  }

  /** Old context of `agent` was elided or compacted. */
  contextCut(agent: string): void {
    this.elided.add(agent);
  }

  /** One response's tool results, in the model's order. */
  results(who: AgentIdentity, results: readonly CallResult[]): void {
    for (const r of results) {
      const tool = r.message.toolName;
      const target = r.target ?? "";
      this.calls.push({ agent: who.agent, tool, target, outcome: OUTCOMES[r.outcome] });
      if (r.outcome === "stumble") this.stumbles.set(who.agent, (this.stumbles.get(who.agent) ?? 0) + 1);
      if (r.outcome === "denied" && r.denial) {
        this.denials.push({ agent: who.agent, agentName: who.name, tool, target, ...r.denial });
      }
    }
  }

  /** The activity of `agent` and every agent below it. */
  activity(agent: string): RunActivity {
    const inTree = (id: string): boolean => id === agent || id.startsWith(`${agent}/`);
    let turns = 0;
    for (const [id, n] of this.turns) if (inTree(id)) turns += n;
    let stumbles = 0;
    for (const [id, n] of this.stumbles) if (inTree(id)) stumbles += n;
    return {
      turns,
      stumbles,
      toolCalls: this.calls.filter((c) => inTree(c.agent)),
      denials: this.denials.filter((d) => inTree(d.agent)),
      contextElided: [...this.elided].some(inTree),
    };
  }
}

const OUTCOMES: Record<CallOutcome, ToolCallOutcome> = {
  ok: "ok",
  tool_error: "error",
  stumble: "stumble",
  denied: "denied",
  aborted: "aborted",
};
