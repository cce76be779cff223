import {
  type AgentEvent,
  type AgentIdentity,
  type ApprovalDecision,
  ApprovalNeededError,
  type ApprovalRequest,
  type Approver,
  CallCannotApply,
  type EmitFn,
  type EventDataMap,
  makeEvent,
} from "../kernel/index.ts";
import type { FlagReason } from "./approvers.ts";
import { describeAction } from "./describe.ts";
import { evaluate } from "./evaluate.ts";
import { ruleToolFor } from "./file-rules.ts";
import { literalPattern, normalizeTarget, PATH_TOOLS } from "./match.ts";
import { parseRule } from "./rules.ts";
import { allowFlag } from "./shell-quote.ts";
import { suggestAllowRules } from "./suggest.ts";
import type { Effect, GateCheck, GateOutcome, PolicyRequest, Rule, Verdict } from "./types.ts";

export type { GateCheck, GateOutcome } from "./types.ts";

export interface ApprovalGateOptions {
  rules: Rule[];
  approver: Approver;
  emit?: EmitFn;
  newId?: () => string;
  /** How approval_decision events name the approver; defaults to the approver's own `source`, else "user". */
  approverSource?: "user" | "flag";
}

/** What the model reads for a refused call: plainly that nothing happened, why, and what would allow it. */
export function deniedMessage(what: string, reason: string, suggestedAllow: readonly string[]): string {
  const allow =
    suggestedAllow.length > 0
      ? ` The user can allow it by running again with ${suggestedAllow.map((r) => allowFlag(r, { quote: "always" })).join(" ")}.`
      : "";
  return (
    `DENIED: this action was not performed: ${what}. Why: ${reason}. Nothing was changed or run. ` +
    `Do not say or imply that it was done; tell the user it was not done.${allow}`
  );
}

/** Why a flag approver refused, in words, by what the run knew about the terminal. */
const FLAG_REASONS: Record<FlagReason, string> = {
  on_ask: "it needs approval and this run denies what it cannot ask (--on-ask deny)",
  default: "it needs approval and no terminal can ask; without one the default is --on-ask deny",
  no_terminal: "it needs approval and there is no terminal to ask on (stdout is not a terminal)",
};

/** State shared by a gate and every child() view: session grants and the one-prompt-at-a-time queue. */
interface SharedState {
  grants: Rule[];
  queue: Promise<void>;
}

const SUMMARY_LIMIT = 120;

function summarize(request: PolicyRequest): string {
  const text = request.targets.join(", ").split("\n")[0] ?? "";
  return text.length > SUMMARY_LIMIT ? `${text.slice(0, SUMMARY_LIMIT)}…` : text;
}

function describe(tool: string, request: PolicyRequest): string {
  // A tool whose rules match another name (`mcp:github/create_issue` is rule tool `mcp`, target
  // `github/create_issue`) is named by its own name alone.
  if (request.tool !== tool) return tool;
  const summary = summarize(request);
  return summary === "" ? tool : `${tool} ${summary}`;
}

/** `write_file hello.py`: a call as denial messages name it (also used by the helper's gate). */
export { describe as describeCall };

/**
 * The rules a "yes for this session" answer adds: each target exactly, escaped so globs stay literal.
 * A call without targets grants the bare tool only for tools that have no main argument (agents);
 * for exec, fetch and file tools it grants nothing, and a session answer counts as once.
 */
export function sessionGrantRules(request: PolicyRequest): Rule[] {
  if (request.targets.length === 0) {
    const named = request.tool === "exec" || request.tool === "fetch" || PATH_TOOLS.has(request.tool);
    return named ? [] : [parseRule(request.tool, "allow", "session")];
  }
  const tool = ruleToolFor(request.tool);
  return request.targets.map((target) =>
    parseRule(
      `${tool}:${literalPattern(request.tool, normalizeTarget(request.tool, target))}`,
      "allow",
      "session",
    ),
  );
}

/**
 * The approval gate the agent loop calls for every mutating or unknown call. Deny rules refuse
 * without asking; allow rules and session grants pass; everything else is put to the approver, one
 * prompt at a time across every agent sharing the gate. An ApprovalNeededError from the approver comes
 * back as an outcome with `stop` (the run ends with exit code 6).
 */
export class ApprovalGate {
  private state: SharedState = { grants: [], queue: Promise.resolve() };

  constructor(private readonly options: ApprovalGateOptions) {}

  /** Who answers, as decisions report it: read on each use, so an approver that delegates may change. */
  private get source(): "user" | "flag" {
    const own = (this.options.approver as { source?: unknown }).source;
    return this.options.approverSource ?? (own === "flag" ? "flag" : "user");
  }

  /** Who decides when the approver refuses: the user, or why the flag stands in for them. */
  private get refuser(): "user" | FlagReason {
    const why = (this.options.approver as { why?: unknown }).why;
    if (this.source === "user") return "user";
    return why === "default" || why === "no_terminal" ? why : "on_ask";
  }

  /** Rules granted for this session so far (shared with every child view). */
  get sessionRules(): readonly Rule[] {
    return this.state.grants;
  }

  /**
   * A view for a sub-agent: the same rules, approver, grants and prompt queue. It takes no rules of
   * its own, so a child can never hold more permission than its parent; grants the user makes while
   * answering a child's prompt are the user's and apply to the whole session.
   */
  child(): ApprovalGate {
    const view = new ApprovalGate(this.options);
    view.state = this.state;
    return view;
  }

  /**
   * A view with more allow rules (an activated skill's `allowed-tools`, source "skill"), sharing the
   * grants and prompt queue: deny and ask rules still beat them (evaluate.ts), so a skill never lifts a
   * deny. Rules that do not parse are returned with why, never thrown.
   */
  withAllowRules(texts: readonly string[]): { gate: ApprovalGate; invalid: string[] } {
    const added: Rule[] = [];
    const invalid: string[] = [];
    for (const text of texts) {
      try {
        added.push(parseRule(text, "allow", "skill"));
      } catch (error) {
        invalid.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (added.length === 0) return { gate: this, invalid };
    const view = new ApprovalGate({ ...this.options, rules: [...this.options.rules, ...added] });
    view.state = this.state;
    return { gate: view, invalid };
  }

  /** What the rules and this session's grants say about a call, without asking anyone. */
  effectOf(request: PolicyRequest): Effect {
    return this.evaluate(request).effect;
  }

  /** Decides one call; asks the approver when the policy says ask. */
  async check(input: GateCheck, signal: AbortSignal): Promise<GateOutcome> {
    const verdict = this.evaluate(input.request);
    if (verdict.effect === "deny") {
      const rule = verdict.rule?.text;
      this.emit(input.who, "approval_decision", {
        id: this.newId(),
        decision: { kind: "deny" },
        source: "rule",
        ...(rule ? { rule } : {}),
      });
      const reason = `the policy denies it: ${verdict.reason}`;
      return {
        allowed: false,
        verdict,
        message: deniedMessage(describe(input.tool, input.request), reason, []),
        denial: { decidedBy: "rule", ...(rule ? { rule } : {}), reason, suggestedAllow: [] },
      };
    }
    if (verdict.effect === "allow") return { allowed: true, verdict };
    return this.serialize(() => this.ask(input, verdict, signal));
  }

  private evaluate(request: PolicyRequest): Verdict {
    return evaluate(request, [...this.options.rules, ...this.state.grants]);
  }

  private newId(): string {
    return this.options.newId?.() ?? crypto.randomUUID();
  }

  private emit<K extends "approval_request" | "approval_decision">(
    who: AgentIdentity,
    kind: K,
    data: EventDataMap[K],
  ): void {
    this.options.emit?.(makeEvent(who, kind, data) as AgentEvent);
  }

  /** Runs `task` after every earlier prompt has finished, whether it succeeded or threw. */
  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.state.queue.then(task);
    this.state.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async ask(input: GateCheck, first: Verdict, signal: AbortSignal): Promise<GateOutcome> {
    signal.throwIfAborted();
    // A prompt answered while this call waited may have granted it for the session.
    const again = this.evaluate(input.request);
    if (again.effect === "allow") return { allowed: true, verdict: again };
    const preview = await this.preview(input, first);
    if (typeof preview !== "string") return preview;
    const grants = sessionGrantRules(input.request);
    const sessionRule = grants.map((g) => g.text).join(", ");
    const request: ApprovalRequest = {
      id: this.newId(),
      agent: input.who.agent,
      agentName: input.who.name,
      tool: input.tool,
      args: input.args,
      preview,
      sessionRule,
      sessionRules: grants.map((g) => g.text),
      what: describeAction(input.request.tool, input.args, input.request.targets),
      target: summarize(input.request),
      reason: first.reason,
    };
    this.emit(input.who, "approval_request", { request });
    let decision: ApprovalDecision;
    try {
      decision = await this.options.approver.decide(request, signal);
    } catch (error) {
      if (!(error instanceof ApprovalNeededError)) throw error;
      // The error names the tool and its target; the rule that would let the call through follows it.
      const suggestedAllow = this.suggest(input.request);
      const allow =
        suggestedAllow.length > 0
          ? `; to allow it: ${suggestedAllow.map((rule) => allowFlag(rule)).join(" ")}`
          : "";
      return {
        allowed: false,
        verdict: { effect: "ask", reason: first.reason },
        message: `${error.message}${allow}`,
        denial: { decidedBy: "on_ask", reason: "it needs approval and --on-ask is fail", suggestedAllow },
        stop: true,
      };
    }
    this.emit(input.who, "approval_decision", {
      id: request.id,
      decision,
      source: this.source,
      ...(this.refuser !== "user" ? { why: this.refuser } : {}),
      ...(decision.kind === "session" && sessionRule !== "" ? { rule: sessionRule } : {}),
    });
    return this.outcome(input, decision, grants);
  }

  private outcome(input: GateCheck, decision: ApprovalDecision, grants: Rule[]): GateOutcome {
    const what = describe(input.tool, input.request);
    switch (decision.kind) {
      case "once":
        return { allowed: true, verdict: { effect: "allow", reason: `approved once by the ${this.source}` } };
      case "session": {
        this.state.grants.push(...grants);
        const verdict: Verdict = { effect: "allow", reason: "approved for this session" };
        if (grants[0]) verdict.rule = grants[0];
        return { allowed: true, verdict };
      }
      case "deny": {
        const reason = this.refuser === "user" ? "the user said no" : FLAG_REASONS[this.refuser];
        const suggestedAllow = this.suggest(input.request);
        return {
          allowed: false,
          verdict: { effect: "deny", reason: `denied by the ${this.source}` },
          message: deniedMessage(what, reason, suggestedAllow),
          denial: { decidedBy: this.refuser, reason, suggestedAllow },
        };
      }
      case "deny_feedback": {
        const reason = `the user said no, with feedback: ${decision.feedback}`;
        return {
          allowed: false,
          verdict: { effect: "deny", reason: `denied by the ${this.source} with feedback` },
          message: deniedMessage(what, reason, []),
          denial: { decidedBy: "user", reason, suggestedAllow: this.suggest(input.request) },
        };
      }
    }
  }

  private suggest(request: PolicyRequest): string[] {
    return suggestAllowRules(request, [...this.options.rules, ...this.state.grants]);
  }

  /**
   * The prompt's preview; a preview that fails shows the target and why instead. A call that cannot
   * apply (CallCannotApply) is not put to the user: its failure goes back to the model, but only when
   * the agent may read its targets without asking, since the failure tells whether a string is in the
   * file (no way to learn what a read would not show). Nothing runs either way, so a failing preview
   * can never let a call through: deny rules were applied before this point, and the call itself would
   * need a later, successful check.
   */
  private async preview(input: GateCheck, verdict: Verdict): Promise<string | GateOutcome> {
    try {
      return await input.preview();
    } catch (error) {
      if (error instanceof CallCannotApply && this.readable(input.request))
        return { allowed: false, verdict, message: error.message, cannotApply: true };
      const reason = error instanceof Error ? error.message : String(error);
      return `${describe(input.tool, input.request)}\n(preview unavailable: ${reason})`;
    }
  }

  /** Whether read_file of the request's targets would be allowed without asking. */
  private readable(request: PolicyRequest): boolean {
    if (request.targets.length === 0) return false;
    const read: PolicyRequest = {
      tool: "read_file",
      targets: request.targets,
      readOnly: true,
      sensitive: request.sensitive,
    };
    return this.evaluate(read).effect === "allow";
  }
}
