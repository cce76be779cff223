/**
 * A sub-agent whose spec says `isolation: worktree` (as Claude Code's agent files do:
 * https://code.claude.com/docs/en/worktrees, "isolate subagents with worktrees") runs in a git worktree
 * of its own, on branch `agent/sub-NAME-HEX`, made from the parent's files as they are
 * (tools/worktree/child-change.ts), so children that edit in parallel never touch each other's files.
 * Its workspace is the worktree (the parent's sandbox rebound to it); when it ends, its work is committed
 * on its branch and its change comes back to the parent as an `apply_patch` through the parent's own
 * tool pipeline: the same rules, hooks and approval as an apply_patch the parent made. Applied, denied or
 * not applicable, the change stays on the branch, and the parent's model is told which.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { AppError, type RunResult, type ToolCall } from "../../kernel/index.ts";
import { sandboxForRoots } from "../../tools/exec/sandbox.ts";
import { commitPlan, type PatchPlan, planDiff } from "../../tools/files/apply-patch.ts";
import { readTextFile } from "../../tools/files/files.ts";
import { changeTarget } from "../../tools/policy-target.ts";
import type { Tool } from "../../tools/types.ts";
import { Workspace } from "../../tools/workspace.ts";
import { childChange, snapshotBase } from "../../tools/worktree/child-change.ts";
import { findRepository } from "../../tools/worktree/repository.ts";
import { commitWorktree, createWorktree, removeWorktree } from "../../tools/worktree/worktree-store.ts";
import type { RunAgentOptions } from "../types.ts";
import type { NodeOutcome } from "./run-state.ts";
import { type InvokeContext, invoke } from "./tool-calls/invoke.ts";

type Env = Record<string, string | undefined>;

/** Runs `child` (options as childRunOptions made them) in a worktree of its own; see the module comment. */
export async function runIsolatedChild(
  child: RunAgentOptions,
  callId: string,
  act: InvokeContext,
  run: (options: RunAgentOptions) => Promise<NodeOutcome>,
): Promise<NodeOutcome> {
  const env: Env = child.env ?? process.env;
  let prepared: Awaited<ReturnType<typeof prepare>>;
  try {
    prepared = await prepare(child, env);
  } catch (error) {
    const message = `isolation: worktree: ${(error as Error).message}`;
    return { result: failed(message) };
  }
  const { repo, worktree, workspace } = prepared;
  const outcome = await run({ ...child, workspace });
  let commit: string | undefined;
  try {
    commit = commitWorktree(worktree.path, `agent: ${child.spec.name}: ${firstLine(child.goal)}`, env);
  } catch (error) {
    return withNote(
      outcome,
      `its work could not be committed (${(error as Error).message}); it is in ${worktree.path}`,
    );
  }
  if (commit === undefined) {
    removeWorktree(repo, worktree.name, { force: true, env });
    return outcome;
  }
  const where = `branch ${worktree.branch} (worktree ${worktree.path})`;
  return inTurn(act.workspace, () => bringBack(outcome, { repo, worktree, commit, where, env }, callId, act));
}

/**
 * Runs `step` after every earlier step on the same parent workspace has ended: children that end
 * together bring their changes back one at a time, each planned against the files the one before left.
 * Keyed by the workspace object the parent and its children share, so it lives as long as the session.
 */
const turns = new WeakMap<object, Promise<unknown>>();
function inTurn<T>(workspace: object, step: () => Promise<T>): Promise<T> {
  const previous = turns.get(workspace) ?? Promise.resolve();
  const next = previous.then(step, step);
  turns.set(
    workspace,
    next.catch(() => undefined),
  );
  return next;
}

interface Finished {
  repo: ReturnType<typeof findRepository>;
  worktree: { base: string; branch: string; path: string };
  commit: string;
  where: string;
  env: Env;
}

/** Plans the child's change against the parent's files and puts it through the parent's pipeline. */
async function bringBack(
  outcome: NodeOutcome,
  done: Finished,
  callId: string,
  act: InvokeContext,
): Promise<NodeOutcome> {
  const { repo, worktree, commit, where, env } = done;
  const change = await childChange(repo, worktree.base, commit, act.workspace, env);
  const notApplied = change.unapplied.length > 0 ? ` Not carried over: ${change.unapplied.join("; ")}.` : "";
  if (change.plan.changes.length === 0)
    return withNote(
      outcome,
      `its change was not applied to your workspace.${notApplied} It stays on ${where}.`,
    );
  const applied = await invoke(
    changeTool(change.plan),
    changeCall(callId, worktree.branch, change.plan),
    act,
  );
  if (applied.outcome !== "ok") {
    const why = applied.message.content.split("\n", 1)[0] ?? "";
    return withNote(
      outcome,
      `its change was NOT applied to your workspace (${why}).${notApplied} It stays on ${where}.`,
    );
  }
  return withNote(
    outcome,
    `its change was applied to your workspace (${change.plan.summary.join(", ")}).${notApplied} It is also on ${where}.`,
  );
}

async function prepare(child: RunAgentOptions, env: Env) {
  const parent = child.workspace;
  let repo: ReturnType<typeof findRepository>;
  try {
    repo = findRepository(parent.root, env);
  } catch (error) {
    throw new Error(error instanceof AppError ? error.message : String(error));
  }
  const base = snapshotBase(repo, env);
  const name = `sub-${child.spec.name}-${randomBytes(3).toString("hex")}`.slice(0, 64);
  const worktree = createWorktree(repo, { name, base, env });
  const opened = await Workspace.open(join(worktree.path, repo.prefix), { env });
  const workspace = parent.sandbox
    ? opened.withSandbox(sandboxForRoots(parent.sandbox, opened.roots, env))
    : opened;
  return { repo, worktree, workspace };
}

/** The apply_patch the parent's pipeline runs for the child's change: gated like one the model made. */
function changeTool(plan: PatchPlan): Tool {
  return {
    name: "apply_patch",
    kind: "primitive",
    description: "the change an isolated sub-agent made",
    parameters: { type: "object" },
    readOnly: false,
    concurrent: false,
    policyName: "apply_patch",
    validate: (args) => ({ ok: true, value: args as Record<string, unknown> }),
    policyTarget: (_args, ctx) =>
      changeTarget(
        plan.changes.map((c) => c.rel),
        ctx,
      ),
    preview: async () => planDiff(plan),
    execute: async (_args, ctx) => {
      // A file changed since the plan was made (by the user, or a command) is never overwritten.
      for (const change of plan.changes) {
        const now = await readTextFile(change.abs, change.rel, ctx.workspace).catch(() => null);
        if (now !== change.before)
          throw new Error(
            `${change.rel} changed since the sub-agent's change was planned; nothing was written`,
          );
      }
      await commitPlan(plan, ctx.workspace);
      return {
        modelText: `Success. Updated the following files:\n${plan.summary.join("\n")}`,
        display: planDiff(plan, ctx.signal),
        isError: false,
      };
    },
  };
}

function changeCall(callId: string, branch: string, plan: PatchPlan): ToolCall {
  return {
    id: `${callId}-change`,
    name: "apply_patch",
    arguments: { from_branch: branch, files: plan.changes.map((c) => c.rel) },
  };
}

function withNote(outcome: NodeOutcome, note: string): NodeOutcome {
  const answer = `${outcome.result.answer.trim()}\n\n[isolated in a git worktree: ${note}]`;
  return { ...outcome, result: { ...outcome.result, answer } };
}

function failed(message: string): RunResult {
  return {
    status: "error",
    finishReason: "error",
    answer: "",
    usage: [],
    error: { kind: "config", message },
  };
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}
