import {
  type AgentIdentity,
  type DenialInfo,
  type EmitFn,
  makeEvent,
  type ToolCall,
  type ToolOutput,
  type ToolResultMessage,
} from "../../../kernel/index.ts";
import type { Redactor } from "../../../kernel/text/redact.ts";
import type { Checkpointer } from "../../../tools/checkpoints/checkpointer.ts";
import { errorOutput, finishOutput } from "../../../tools/tool-output.ts";
import type { PolicyTarget, Tool, ToolContext, ToolRunOutput } from "../../../tools/types.ts";
import type { Workspace } from "../../../tools/workspace.ts";
import type { HookCall, ToolHooks } from "../../hooks/hooks.ts";
import type { ToolGate } from "../../types.ts";
import { checkpointed } from "./checkpointed.ts";
import { liveOutput, liveProgress } from "./live-output.ts";

/**
 * The one call path of every tool (primitives, sub-agents, `verify:` commands, MCP tools), in order:
 * validate the arguments, hooks before, approval (the gate's decision as a value), run (checkpointed
 * when it changes files: checkpointed.ts), redact once with
 * the session's redactor, truncate, hooks after, events (tool_start before, tool_end after).
 * Nothing escapes as a throw: every failure is a result the model can read.
 */

/** How one call went, for Verify: ok, the tool failed, the model stumbled, approval denied, aborted. */
export type CallOutcome = "ok" | "tool_error" | "stumble" | "denied" | "aborted";

export interface CallResult {
  message: ToolResultMessage;
  outcome: CallOutcome;
  /** The call's main argument (command, path, URL, a delegation's goal), first line; "" when unknown. */
  target?: string;
  /** How the gate (or a hook) refused it, when outcome is "denied". */
  denial?: DenialInfo;
  /** Set when the session must end (`--on-ask fail`): why. */
  stop?: string;
  /** Set with `stop` when the agent that met the question (a sub-agent, a forked skill) already reported it
   * as its error event: the callers up the tree end with it without printing it again. */
  stopReported?: true;
}

/** What the pipeline needs from the run it serves. */
export interface InvokeContext {
  who: AgentIdentity;
  emit: EmitFn;
  gate: ToolGate;
  signal: AbortSignal;
  workspace: Workspace;
  /** The session's redactor: tool output is redacted here, once. */
  redactor: Redactor;
  hooks?: ToolHooks;
  /** Characters of one result the model receives (the rest is cut with a note). */
  modelTextLimit: number;
  now: () => number;
  /** The session's checkpoints of the files calls change; none when absent (docs/rewind.md). */
  checkpoints?: Checkpointer;
}

/** The message returned for a call that could not run because the run was aborted. */
export const ABORTED_RESULT = "aborted: the run was interrupted before this tool call finished";

export function errorResult(call: ToolCall, content: string, outcome: CallOutcome): CallResult {
  const target = argumentTarget(call.arguments);
  return {
    message: { role: "tool", toolCallId: call.id, toolName: call.name, content, isError: true },
    outcome,
    ...(target !== "" ? { target } : {}),
  };
}

/** The argument that names what a call is about, read from raw arguments (they may not have passed the
 * tool's schema, or name no tool at all): so a stumble's record says what the model was after. */
const TARGET_ARGS = ["command", "path", "file_path", "url", "goal", "pattern", "name"] as const;

function argumentTarget(args: Record<string, unknown> | undefined): string {
  if (args === null || typeof args !== "object") return "";
  for (const key of TARGET_ARGS) {
    const value = args[key];
    if (typeof value === "string" && value.trim() !== "") return targetText([value]);
  }
  return "";
}

/** What a call adds for the user: its display, and for commands a summary and the last lines. */
type Shown = { display?: string; summary?: string; tail?: string[] };

/**
 * The time one call spent waiting for the gate's decisions (a person at the approval prompt, a redirect's
 * approval): not the tool's own time, so tool_end's durationMs leaves it out (docs/chat.md).
 */
interface ApprovalClock {
  waitedMs: number;
}

/** Wraps one call in its tool_start / tool_end events, named by the tool's own name (the model's name
 * when no tool answers to it). */
export async function traced(
  call: ToolCall,
  ctx: Pick<InvokeContext, "who" | "emit" | "now">,
  body: () => Promise<CallResult & Shown>,
  tool?: Pick<Tool, "name" | "kind">,
  clock: ApprovalClock = { waitedMs: 0 },
): Promise<CallResult> {
  const started = ctx.now();
  const kind = tool?.kind;
  const tagged = kind && kind !== "primitive" ? { kind } : {};
  const name = tool?.name ?? call.name;
  ctx.emit(makeEvent(ctx.who, "tool_start", { id: call.id, tool: name, args: call.arguments, ...tagged }));
  const { display, summary: shown, tail, ...result } = await body();
  const summary = shown ?? summarize(result.message.content);
  ctx.emit(
    makeEvent(ctx.who, "tool_end", {
      id: call.id,
      tool: name,
      isError: result.message.isError,
      summary,
      display: display ?? summary,
      durationMs: Math.max(0, ctx.now() - started - clock.waitedMs),
      ...tagged,
      ...(tail !== undefined ? { tail } : {}),
      outcome: result.outcome,
      ...(result.denial ? { decidedBy: result.denial.decidedBy } : {}),
      ...(result.denial?.rule !== undefined ? { rule: result.denial.rule } : {}),
    }),
  );
  return result;
}

function summarize(text: string): string {
  const first = text.split("\n", 1)[0] ?? "";
  return first.length > 200 ? `${first.slice(0, 197)}...` : first;
}

/** Runs one call of `tool` through the pipeline. */
export function invoke(tool: Tool, call: ToolCall, ctx: InvokeContext): Promise<CallResult> {
  const clock: ApprovalClock = { waitedMs: 0 };
  return traced(call, ctx, () => stages(tool, call, ctx, clock), tool, clock);
}

async function stages(
  tool: Tool,
  call: ToolCall,
  ctx: InvokeContext,
  clock: ApprovalClock,
): Promise<CallResult & Shown> {
  const valid = tool.validate(call.arguments);
  if (!valid.ok) {
    const schema = JSON.stringify(tool.parameters);
    const text = `error: ${valid.error}\nExpected a JSON object matching this schema: ${schema}`;
    return errorResult(call, text, "stumble");
  }
  if (ctx.signal.aborted) return errorResult(call, ABORTED_RESULT, "aborted");
  const redirects = redirectGate(call, ctx, clock);
  const toolCtx: ToolContext = {
    workspace: ctx.workspace,
    signal: ctx.signal,
    redactor: ctx.redactor,
    callId: call.id,
    approveRedirect: redirects.approve,
    onOutput: liveOutput(call, ctx),
    onProgress: liveProgress(call, ctx),
  };
  try {
    const target = await tool.policyTarget(valid.value, toolCtx);
    const shown = tool.label?.(valid.value) ?? targetText(target.targets);
    const hookCall: HookCall = {
      tool: tool.name,
      policyName: tool.policyName,
      targets: target.targets,
      args: call.arguments,
    };
    const before = ctx.hooks ? await ctx.hooks.before(hookCall) : {};
    if (before.block !== undefined) {
      const denial = { decidedBy: "hook" as const, reason: before.block, suggestedAllow: [] };
      return { ...errorResult(call, before.block, "denied"), target: shown, denial };
    }
    const refused = await approve(policyCheck(tool, call, valid.value, target, toolCtx), ctx, clock);
    if (refused?.cannotApply) {
      // The gate did not ask: the call cannot apply as it stands. The model gets the tool's own failure,
      // as if it had run (nothing ran).
      const output = finishOutput(errorOutput(refused.message), ctx.redactor, ctx.modelTextLimit);
      return { ...runResult(call, output, [before.note], ctx), target: shown };
    }
    if (refused) return { ...refusedResult(call, refused), target: shown };
    const raw: ToolRunOutput = await checkpointed(tool, call, target, ctx, () =>
      tool.execute(valid.value, toolCtx),
    );
    const output = finishOutput(raw, ctx.redactor, ctx.modelTextLimit);
    const after = ctx.hooks ? await ctx.hooks.after(hookCall, output) : {};
    const result = runResult(call, output, [before.note, after.note, after.block], ctx);
    const own = redirects.stop();
    if (own !== undefined) return { ...result, stop: own };
    // A stop inside the tool's own run (a sub-agent) was reported by the agent that met it.
    if (raw.stop !== undefined) return { ...result, stop: raw.stop, stopReported: true };
    // A redirect the gate refused is a denial of this call too (fetch reports it in its result).
    const denied = redirects.denied();
    if (denied)
      return {
        ...result,
        outcome: "denied",
        target: targetText([denied.url]),
        denial: denied.denial,
        message: { ...result.message, isError: true },
      };
    return { ...result, target: shown };
  } catch (error) {
    if (ctx.signal.aborted) return errorResult(call, ABORTED_RESULT, "aborted");
    const message = ctx.redactor.redact(error instanceof Error ? error.message : String(error));
    const result = errorResult(call, `error: ${call.name} failed: ${message}`, "tool_error");
    const stop = redirects.stop();
    return stop !== undefined ? { ...result, stop } : result;
  }
}

/** The result of a call that ran: its finished output, with the hooks' notes after it. */
function runResult(
  call: ToolCall,
  output: ToolOutput,
  notes: (string | undefined)[],
  ctx: InvokeContext,
): CallResult & Shown {
  const added = notes.filter((n): n is string => n !== undefined).map((n) => `[hook] ${n}`);
  const content = added.length > 0 ? `${output.modelText}\n\n${added.join("\n")}` : output.modelText;
  const outcome: CallOutcome = ctx.signal.aborted ? "aborted" : output.isError ? "tool_error" : "ok";
  return {
    message: {
      role: "tool",
      toolCallId: call.id,
      toolName: call.name,
      content,
      isError: output.isError,
      ...(output.images !== undefined ? { images: output.images } : {}),
    },
    outcome,
    display: output.display,
    ...(output.summary !== undefined ? { summary: output.summary } : {}),
    ...(output.tail !== undefined ? { tail: output.tail } : {}),
  };
}

/** A call the gate refused: a denial the model reads, or, under `--on-ask fail`, the end of the session
 * (reported as an error of this call, as every call not run after it). */
function refusedResult(call: ToolCall, refused: Refusal): CallResult {
  if (refused.stop)
    return { ...errorResult(call, `error: ${refused.message}`, "tool_error"), stop: refused.message };
  return { ...errorResult(call, refused.message, "denied"), denial: refused.denial };
}

/** A call's targets as one short line for results and reports. */
function targetText(targets: readonly string[]): string {
  const line = targets.join(", ").split("\n", 1)[0] ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function policyCheck<A>(
  tool: Tool<A>,
  call: ToolCall,
  args: A,
  target: PolicyTarget,
  toolCtx: ToolContext,
): Check {
  return {
    // What approvals and denials name: an MCP tool by its own name (`mcp:github/create_issue`), whose
    // policy name is `mcp` with the target `github/create_issue`.
    tool: tool.kind === "mcp" ? tool.name : tool.policyName,
    args: call.arguments,
    request: {
      tool: tool.policyName,
      targets: target.targets,
      readOnly: tool.readOnly,
      sensitive: target.sensitive,
      ...(target.trusted ? { trusted: true } : {}),
      ...(target.skillFolder ? { skillFolder: true } : {}),
      ...(tool.allowByDefault ? { allowByDefault: true } : {}),
    },
    preview: () => tool.preview(args, toolCtx),
  };
}

/** Puts each redirect fetch would follow to the gate as a fetch of that URL; remembers a refusal. */
function redirectGate(call: ToolCall, ctx: InvokeContext, clock: ApprovalClock) {
  let stop: string | undefined;
  let denied: { denial: DenialInfo; url: string } | undefined;
  return {
    approve: async (url: string): Promise<string | undefined> => {
      const refused = await approve(redirectCheck(call, url), ctx, clock);
      if (refused?.stop) stop ??= refused.message;
      else if (refused?.denial) denied = { denial: refused.denial, url };
      return refused?.message;
    },
    stop: () => stop,
    denied: () => denied,
  };
}

type Check = Omit<Parameters<ToolGate["check"]>[0], "who">;

interface Refusal {
  message: string;
  denial: DenialInfo;
  stop?: true;
  cannotApply?: undefined;
}

/** The call's preview showed it cannot apply: `message` is the tool's error (the gate did not ask). */
interface CannotApply {
  message: string;
  cannotApply: true;
  denial?: undefined;
  stop?: undefined;
}

/** Puts a call to the gate; undefined when it may run, else the refusal (with `stop` for `--on-ask fail`). */
async function approve(
  check: Check,
  ctx: InvokeContext,
  clock: ApprovalClock,
): Promise<Refusal | CannotApply | undefined> {
  const asked = ctx.now();
  const decision = await ctx.gate.check({ who: ctx.who, ...check }, ctx.signal);
  clock.waitedMs += ctx.now() - asked;
  if (decision.allowed) return undefined;
  if ("cannotApply" in decision) return { message: decision.message, cannotApply: true };
  return {
    message: decision.message,
    denial: decision.denial,
    ...(decision.stop ? { stop: true as const } : {}),
  };
}

/** A redirect fetch would follow goes through the gate as a fetch of that URL (rules, then asking). */
function redirectCheck(call: ToolCall, url: string): Check {
  return {
    tool: call.name,
    args: { url },
    request: { tool: "fetch", targets: [url], readOnly: true, sensitive: false },
    preview: async () => `redirect to ${url}`,
  };
}
