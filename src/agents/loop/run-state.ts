import { freezeMessage } from "../../kernel/conversation/freeze.ts";
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
import type { Finish } from "./finish.ts";
import type { ContextMeter, StallDetector } from "./guards.ts";
import type { LearnRecorder } from "./learn.ts";
import type { AnswerShaper } from "./output-schema.ts";
import type { StopHandler } from "./stop-reasons.ts";
import type { InvokeContext } from "./tool-calls/invoke.ts";

/**
 * The values one agent run is made of (run-loop.ts orders the phases over them): what a run needs to end
 * (`RunBase`), what setup builds before the first turn (`Run`, nothing optional), the counters and flags the
 * loop changes from turn to turn (`TurnState`), and the one step type every phase returns (`Step`).
 */

/** What the Act phase needs (act.ts): the invoke pipeline's context, the registry and the concurrency. */
export interface ActContext extends InvokeContext {
  /** Every tool offered, by the name the model calls: the registry of this run. */
  tools: ReadonlyMap<string, Tool>;
  concurrency: number;
}

/** What a run has from its start, before setup: enough to end it (run-loop.ts `finishRun`). */
export interface RunBase {
  /** The run's options; a skill's folder and grants widen `workspace` and `gate`, the children's template. */
  readonly options: RunAgentOptions;
  readonly who: AgentIdentity;
  readonly shared: SessionShared;
  readonly depthBound: number;
  /** The run's abort signal: the parent's, or the run's own timeout (session-shared.ts). */
  readonly abort: ReturnType<typeof runSignal>;
  readonly limits: RunLimits;
  readonly now: () => number;
  readonly learn: LearnRecorder;
  /** `--schema` (the top agent's final answer only): checks answers, re-asks once. */
  readonly shaper: AnswerShaper;
}

/** The model a run calls: the resolved reference and its catalog facts. A stalled root may replace it once. */
export interface ModelInUse {
  readonly ref: ModelRef;
  readonly info: ModelInfo;
}

/** What setup builds before the first turn (setup.ts): every field set, none filled in later. */
export interface Run extends RunBase {
  /** The spec's system prompt with project instructions, the skills catalog and MCP servers' notes. */
  readonly system: string;
  /** The run's registry: every tool offered, by the name the model calls. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** The invoke pipeline's context; a skill's activation widens its workspace and gate. */
  readonly act: ActContext;
  /** Summarises older turns past the threshold (compaction.ts), against the window of the model in use. */
  readonly compactor: Compactor;
  /** This agent's skill activations: the session's for the root, its own for a child (skill-activation.ts). */
  readonly activations: ActivationState;
  readonly stops: StopHandler;
  readonly meter: ContextMeter;
}

/** What changes from turn to turn: setup builds it, the loop (run-loop.ts) owns it; each field names who sets it. */
export interface TurnState {
  /** The conversation; phases add to it through `append` and replace it whole (compaction, escalation). */
  messages: Message[];
  /** The best answer so far: what a limit's end reports. */
  bestAnswer: string;
  /** Setup's model, until escalation replaces it. */
  model: ModelInUse;
  /** Plan: the previous reply was cut by the output limit; this turn asks for the model's maximum. */
  raiseLimit: boolean;
  /** The stall hook: repeated calls and results (guards.ts); a new detector after escalation. */
  stall: StallDetector;
  /** The stall hook told the model to answer without tools. */
  nudged: boolean;
  /** The verify hook: answers whose verify commands failed. */
  verifyFailures: number;
  /** The escalation hook: the tier a stall may escalate to, once. */
  escalateTo: string | undefined;
  /** The escalation hook: turns are counted from here after an escalation. */
  turnBase: number;
}

/**
 * What every phase returns: go on, or end the run with a finish (and, for `--on-ask fail`, the reason the
 * whole session must stop). A phase that hands a value on carries it in the continue step (`Carry`).
 */
export type Step<Carry extends object = object> = ({ next: "continue" } & Carry) | End;

/** The end of a run, as a step. */
export interface End {
  next: "end";
  finish: Finish;
  /** Set when the session must stop (`--on-ask fail`). */
  stop?: string;
}

export const CONTINUE: Step = { next: "continue" };

/** The end step for a finish (and a session stop, when there is one). */
export function end(finish: Finish, stop?: string): End {
  return stop !== undefined ? { next: "end", finish, stop } : { next: "end", finish };
}

/** A finished run: its result, and why the whole session must stop, if it must. */
export interface NodeOutcome {
  result: RunResult;
  stop?: string;
}

/** Ends the run with an error: emits the error event, then the end step. */
export function failWith(
  base: RunBase,
  message: string,
  kind: NonNullable<RunResult["error"]>["kind"],
  answer: string,
): End {
  base.options.emit(makeEvent(base.who, "error", { message, kind }));
  return end({ finishReason: "error", answer, error: { kind, message } });
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Appends a message to the run's history, frozen (freeze.ts: history is a value), and emits it. */
export function append(base: RunBase, state: TurnState, message: Message): void {
  state.messages.push(freezeMessage(message));
  base.options.emit(makeEvent(base.who, "message", { message }));
}

/** How the run ended when its signal fired (timeout or abort); undefined while it runs. */
export function aborted(base: RunBase, state: TurnState): Finish | undefined {
  if (!base.abort.signal.aborted) return undefined;
  return { finishReason: base.abort.timedOut() ? "timeout" : "aborted", answer: state.bestAnswer };
}
