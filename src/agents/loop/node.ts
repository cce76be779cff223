import {
  type AgentIdentity,
  type Message,
  type ModelInfo,
  type ModelRef,
  makeEvent,
  type RunResult,
} from "../../kernel/index.ts";
import type { Tool } from "../../tools/types.ts";
import type { ActivationState } from "../spec/skills/types.ts";
import type { RunAgentOptions, RunLimits } from "../types.ts";
import type { runSignal, SessionShared } from "./bookkeeping/session-shared.ts";
import type { Compactor } from "./context/compaction.ts";
import { type Finish, statusFor } from "./finish.ts";
import type { ContextMeter, StallDetector } from "./guards.ts";
import type { LearnRecorder } from "./learn.ts";
import type { AnswerShaper } from "./output-schema.ts";
import type { StopHandler } from "./stop-reasons.ts";
import type { InvokeContext } from "./tool-calls/invoke.ts";

/** The state of one agent run, and how a run ends (turns.ts holds the phases in between). */

/** What the Act phase needs (act.ts): the invoke pipeline's context, the registry and the concurrency. */
export interface ActContext extends InvokeContext {
  /** Every tool offered, by the name the model calls: the registry of this run. */
  tools: ReadonlyMap<string, Tool>;
  concurrency: number;
}

/** One agent run in progress. */
export interface Node {
  options: RunAgentOptions;
  who: AgentIdentity;
  shared: SessionShared;
  depthBound: number;
  run: ReturnType<typeof runSignal>;
  limits: RunLimits;
  now: () => number;
  learn: LearnRecorder;
  messages: Message[];
  bestAnswer: string;
  modelName: string;
  /** The spec's system prompt with the project instructions (instructions.ts). */
  system: string;
  /** Summarises older turns past the threshold (compaction.ts); set by newNode. */
  compactor?: Compactor;
  started: boolean;
  model?: ModelRef;
  info?: ModelInfo;
  /** The run's registry: every tool offered, by the name the model calls. */
  tools: Map<string, Tool>;
  act?: ActContext;
  /** Set when the session must stop (`--on-ask fail`). */
  stop?: string;
  stall: StallDetector;
  meter: ContextMeter;
  stops: StopHandler;
  raiseLimit: boolean;
  nudged: boolean;
  verifyFailures: number;
  /** A child's skill activations (the root's live in the session: skill-activation.ts). */
  activations?: ActivationState;
  shaper: AnswerShaper;
  /** The tier a stall may escalate to, once; turns are counted from `turnBase` after it. */
  escalateTo?: string | undefined;
  turnBase: number;
}

/** A finished node: its result, and why the whole session must stop, if it must. */
export interface NodeOutcome {
  result: RunResult;
  stop?: string;
}

/** Ends the run: flushes learn signals, reports a child's early end, and emits session_end at the root. */
export async function finishNode(node: Node, f: Finish): Promise<NodeOutcome> {
  const { options, who } = node;
  const isRoot = who.depth === 0;
  node.run.dispose();
  await node.learn.flush();
  if (isRoot && !node.started) startSession(node);
  // A child's early end is news to its parent's watchers; the root's end is the session_end event itself.
  if (!isRoot && f.finishReason !== "stop" && f.finishReason !== "stall") {
    const message = `${options.spec.name} ended: ${f.finishReason}`;
    options.emit(makeEvent(who, "warning", { message, code: f.finishReason }));
  }
  const status = f.status ?? statusFor(f.finishReason);
  const result: RunResult = {
    ...f,
    ...(status === "limit" ? { answer: node.shaper.partial(f.answer) } : {}),
    status,
    usage: node.shared.tracker.report(who.agent),
    activity: node.shared.log.activity(who.agent),
  };
  if (isRoot)
    options.emit(makeEvent(who, "session_end", { ...result, sessionId: node.shared.sessionId ?? "" }));
  return node.stop !== undefined ? { result, stop: node.stop } : { result };
}

export function nodeFail(
  node: Node,
  message: string,
  kind: NonNullable<RunResult["error"]>["kind"] = "internal",
): Promise<NodeOutcome> {
  node.options.emit(makeEvent(node.who, "error", { message, kind }));
  return finishNode(node, { finishReason: "error", answer: node.bestAnswer, error: { kind, message } });
}

export function startSession(node: Node): void {
  node.started = true;
  const { options, who, shared } = node;
  const instructed = options.spec.instructions !== false && (options.instructions?.files.length ?? 0) > 0;
  options.emit(
    makeEvent(who, "session_start", {
      sessionId: shared.sessionId ?? "",
      goal: options.typedGoal ?? options.goal,
      agentName: options.spec.name,
      model: node.modelName,
      cwd: options.workspace.root,
      ...(options.resumed ? { resumed: true } : {}),
      ...(instructed ? { instructions: options.instructions?.files.map((f) => f.path) ?? [] } : {}),
    }),
  );
  for (const message of options.instructions?.warnings ?? [])
    options.emit(makeEvent(who, "warning", { message, code: "instructions" }));
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Appends a message to the run's history and emits it. */
export function append(node: Node, message: Message): void {
  node.messages.push(message);
  node.options.emit(makeEvent(node.who, "message", { message }));
}

/** How the run ended when its signal fired (timeout or abort); undefined while it runs. */
export function aborted(node: Node): Finish | undefined {
  if (!node.run.signal.aborted) return undefined;
  return { finishReason: node.run.timedOut() ? "timeout" : "aborted", answer: node.bestAnswer };
}
