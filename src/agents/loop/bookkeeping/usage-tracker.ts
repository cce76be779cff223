import {
  type AgentUsageReport,
  addUsage,
  emptyUsage,
  type ModelInfo,
  totalTokens,
  type Usage,
} from "../../../kernel/index.ts";
import { costOf } from "../../../llm/catalog.ts";

/**
 * Usage and cost per agent of one session, rolled up per subtree, with budgets per subtree.
 * One tracker per session, passed down to every child run (no module-level state).
 */

/** One agent's report fields, plus its running subtree totals and budgets. */
interface UsageNode extends Omit<AgentUsageReport, "subtree"> {
  subtreeUsage: Usage;
  subtreeCostUsd: number;
  tokenBudget?: number;
  costBudgetUsd?: number;
  children: string[];
}

/** Which budget an agent's subtree (or an ancestor's) has exceeded. */
export interface BudgetExceeded {
  agent: string;
  kind: "tokens" | "cost";
  used: number;
  limit: number;
}

/** A budget exceeded, as one line: `cost budget of $0.01 spent ($0.012345 used) by root`. */
export function describeBudget(over: BudgetExceeded): string {
  if (over.kind === "cost") {
    return `cost budget of $${over.limit} spent ($${over.used.toFixed(6)} used) by ${over.agent}`;
  }
  return `token budget of ${over.limit} spent (${over.used} tokens used) by ${over.agent}`;
}

export class UsageTracker {
  private readonly nodes = new Map<string, UsageNode>();

  /** Registers an agent before its first model call. Budgets bound its whole subtree. */
  register(entry: {
    agent: string;
    name: string;
    parent?: string;
    depth: number;
    model: string;
    tokenBudget?: number;
    costBudgetUsd?: number;
  }): void {
    const node: UsageNode = {
      ...entry,
      usage: emptyUsage(),
      costUsd: 0,
      subtreeUsage: emptyUsage(),
      subtreeCostUsd: 0,
      children: [],
    };
    this.nodes.set(entry.agent, node);
    if (entry.parent) this.nodes.get(entry.parent)?.children.push(entry.agent);
  }

  /** The model that answered `agent`'s latest call, when a fallback candidate did (reports name it). */
  answeredBy(agent: string, model: string): void {
    const node = this.nodes.get(agent);
    if (node) node.model = model;
  }

  /** Records one model call's usage for `agent` and every ancestor's subtree. */
  add(agent: string, usage: Usage, info: ModelInfo): void {
    const cost = costOf(usage, info);
    const node = this.nodes.get(agent);
    if (!node) return;
    node.usage = addUsage(node.usage, usage);
    node.costUsd += cost;
    for (let n: UsageNode | undefined = node; n; n = n.parent ? this.nodes.get(n.parent) : undefined) {
      n.subtreeUsage = addUsage(n.subtreeUsage, usage);
      n.subtreeCostUsd += cost;
    }
  }

  /** The first budget exceeded by `agent`'s subtree or any ancestor's subtree, if any. */
  exceeded(agent: string): BudgetExceeded | undefined {
    for (let n = this.nodes.get(agent); n; n = n.parent ? this.nodes.get(n.parent) : undefined) {
      const tokens = totalTokens(n.subtreeUsage);
      if (n.tokenBudget !== undefined && tokens >= n.tokenBudget) {
        return { agent: n.agent, kind: "tokens", used: tokens, limit: n.tokenBudget };
      }
      if (n.costBudgetUsd !== undefined && n.subtreeCostUsd >= n.costBudgetUsd) {
        return { agent: n.agent, kind: "cost", used: n.subtreeCostUsd, limit: n.costBudgetUsd };
      }
    }
    return undefined;
  }

  /** Reports for `agent` and its descendants, `agent` first (depth-first, registration order). */
  report(agent: string): AgentUsageReport[] {
    const out: AgentUsageReport[] = [];
    const visit = (id: string): void => {
      const n = this.nodes.get(id);
      if (!n) return;
      const report: AgentUsageReport = {
        agent: n.agent,
        name: n.name,
        depth: n.depth,
        model: n.model,
        usage: { ...n.usage },
        costUsd: n.costUsd,
        subtree: { usage: { ...n.subtreeUsage }, costUsd: n.subtreeCostUsd },
      };
      if (n.parent !== undefined) report.parent = n.parent;
      out.push(report);
      for (const c of n.children) visit(c);
    };
    visit(agent);
    return out;
  }
}
