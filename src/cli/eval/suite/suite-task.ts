/** A suite's tasks with `defaults:` applied and paths made absolute: what the runner needs, nothing else. */
import { resolve } from "node:path";
import type { SandboxMode, SuiteFile, TaskExpectation } from "./suite-schema.ts";

/** Seconds a check may run when the suite does not say. */
export const DEFAULT_CHECK_TIMEOUT_S = 120;

export interface TaskCheck {
  name: string;
  run: string;
  timeoutS: number;
}

export type TaskWorkspace = { kind: "folder"; path: string } | { kind: "git"; repo: string; ref: string };

export interface SuiteTask {
  id: string;
  goal: string;
  workspace: TaskWorkspace;
  checks: TaskCheck[];
  expect: TaskExpectation;
  /** Absolute path of the JSON schema file. */
  schema?: string;
  agent?: string;
  model?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  maxTokens?: number;
  timeoutS?: number;
  sandbox: SandboxMode;
  allow: string[];
  deny: string[];
  onAsk: "deny" | "fail" | "allow";
  /** Names of the user's MCP servers the run gets (defaults' and the task's together). */
  mcpServers: string[];
}

/** Applies defaults (a task's own value wins; allow and deny lists add up) and resolves paths against `base`. */
export function resolveTasks(suite: SuiteFile, base: string): SuiteTask[] {
  const defaults = suite.defaults ?? {};
  return suite.tasks.map((task) => {
    const checkTimeout = task.check_timeout ?? defaults.check_timeout ?? DEFAULT_CHECK_TIMEOUT_S;
    const out: SuiteTask = {
      id: task.id,
      goal: task.goal,
      workspace:
        typeof task.workspace === "string"
          ? { kind: "folder", path: resolve(base, task.workspace) }
          : { kind: "git", repo: resolve(base, task.workspace.git), ref: task.workspace.ref },
      checks: (task.checks ?? []).map((check) =>
        typeof check === "string"
          ? { name: check, run: check, timeoutS: checkTimeout }
          : { name: check.name ?? check.run, run: check.run, timeoutS: check.timeout ?? checkTimeout },
      ),
      expect: task.expect ?? {},
      sandbox: task.sandbox ?? defaults.sandbox ?? "workspace-write",
      allow: [...(defaults.allow ?? []), ...(task.allow ?? [])],
      deny: [...(defaults.deny ?? []), ...(task.deny ?? [])],
      onAsk: task.on_ask ?? defaults.on_ask ?? "deny",
      mcpServers: [...new Set([...(defaults.mcp_servers ?? []), ...(task.mcp_servers ?? [])])],
    };
    const pick = <T>(own: T | undefined, fallback: T | undefined): T | undefined => own ?? fallback;
    const agent = pick(task.agent, defaults.agent);
    const model = pick(task.model, defaults.model);
    const maxTurns = pick(task.max_turns, defaults.max_turns);
    const maxBudgetUsd = pick(task.max_budget_usd, defaults.max_budget_usd);
    const maxTokens = pick(task.max_tokens, defaults.max_tokens);
    const timeoutS = pick(task.timeout, defaults.timeout);
    if (task.schema !== undefined) out.schema = resolve(base, task.schema);
    if (agent !== undefined) out.agent = agent;
    if (model !== undefined) out.model = model;
    if (maxTurns !== undefined) out.maxTurns = maxTurns;
    if (maxBudgetUsd !== undefined) out.maxBudgetUsd = maxBudgetUsd;
    if (maxTokens !== undefined) out.maxTokens = maxTokens;
    if (timeoutS !== undefined) out.timeoutS = timeoutS;
    return out;
  });
}
