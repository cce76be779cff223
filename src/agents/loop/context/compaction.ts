import { freezeHistory } from "../../../kernel/conversation/freeze.ts";
import {
  type AgentIdentity,
  type AssistantMessage,
  assistantText,
  assistantToolCalls,
  type EmitFn,
  inputLimit,
  type Message,
  type ModelInfo,
  type ModelRef,
  makeEvent,
  type StreamFn,
  type Usage,
  type UserMessage,
} from "../../../kernel/index.ts";
import { messageChars } from "../guards.ts";
import { streamReply } from "../stream-reply.ts";
import SYSTEM from "./compaction-prompt.txt" with { type: "text" };

/**
 * Compaction (docs/run.md "Compaction"): once the provider reports that a conversation's input passed a share
 * of the model's input limit (its maximum input, else its window), the older part is summarised by one fast-tier model call into a
 * structured summary (goal, decisions, files touched, open threads). The history becomes the first
 * user message's goal with that summary, then the recent turns that fit KEEP_TAIL_SHARE of the
 * threshold's tokens (chooseTail): the tail starts at an assistant message, so every tool call in it keeps
 * its result and none is orphaned; a last turn too large to keep has its tool results cut, or is summarised. Old reasoning
 * (thinking blocks) is dropped from the tail: a thinking block may only go back while everything
 * before it is unchanged (the open tool-use cycle keeps its own, see applyCompaction). Between compactions the loop only appends, so every request extends the
 * previous one and provider prompt caches hit.
 */

/** Why a compaction happened: past the threshold, asked for (`/compact`), or the provider's full window. */
export type CompactionReason = "threshold" | "requested" | "context_window";

/** Default share of the context window (input tokens as last reported) that triggers compaction. */
export const COMPACT_THRESHOLD = 0.8;

/**
 * The share of the compaction threshold's tokens the kept tail may hold (a quarter: 20% of the model's
 * maximum input at the default threshold of 0.8). The rest is for the system prompt, the tools and the
 * summary, so one compaction brings the next request under the threshold however large the recent
 * turns were.
 */
export const KEEP_TAIL_SHARE = 0.25;

/** The kept tail's budget (in the loop's 4-characters estimate) for a model's input limit and a threshold,
 * when no provider count is known yet (a chat's `/compact`). */
export function keepTokensFor(
  info: Pick<ModelInfo, "contextWindow" | "maxInputTokens">,
  threshold: number,
): number {
  return Math.floor(KEEP_TAIL_SHARE * Math.min(1, threshold) * inputLimit(info));
}

/** The fewest turns a compaction that was asked for (or followed a full window) summarises. */
const MIN_SUMMARISED_TURNS = 2;

function assistantTurns(messages: readonly Message[]): number {
  return messages.filter((m) => m.role === "assistant").length;
}

/** A kept tool result is never cut below this many characters: past that the turn is summarised instead. */
const MIN_KEPT_RESULT_CHARS = 1_000;

/** The model tier that writes summaries (resolved like a helper run's `fast`). */
export const COMPACTION_TIER = "fast";

/** A tool result longer than this is cut in the summariser's transcript. */
const MAX_RESULT_CHARS = 4000;

const SUMMARY_OPEN = "<conversation_summary>";

/** Input tokens of a request as the provider billed them: base input, cache reads and cache writes. */
export function reportedInputTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/**
 * What a compaction keeps: the tail from `cut` on, and, when even the last turn is larger than the
 * budget, the most characters each of its tool results keeps (`resultLimit`).
 */
export interface TailChoice {
  cut: number;
  resultLimit?: number;
}

/**
 * The kept tail, chosen by size: the longest run of recent turns (starting at an assistant message, so
 * every call keeps its result) whose estimate fits `keepTokens` (4 characters a token, as the loop's
 * estimate counts them). When the last turn alone does not fit, its tool results are cut to fit; when
 * even that cannot fit (its own call is larger, or each result would keep under MIN_KEPT_RESULT_CHARS),
 * the whole conversation is summarised and nothing is kept. Undefined when everything after the first
 * message fits: there is nothing older to summarise.
 */
export function chooseTail(messages: readonly Message[], keepTokens: number): TailChoice | undefined {
  const budget = Math.max(0, Math.floor(keepTokens * 4));
  let chars = 0;
  let fits: number | undefined;
  let last: number | undefined;
  for (let i = messages.length - 1; i > 0; i--) {
    const m = messages[i] as Message;
    chars += messageChars(m);
    if (m.role !== "assistant") continue;
    last ??= i;
    if (chars > budget) break;
    fits = i;
  }
  if (fits !== undefined) return fits > 1 ? { cut: fits } : undefined;
  if (last === undefined) return undefined;
  const resultLimit = resultLimitFor(messages.slice(last), budget);
  return resultLimit !== undefined ? { cut: last, resultLimit } : { cut: messages.length };
}

/** The largest per-result length that makes `turn` fit `budget` characters, or undefined when none does. */
function resultLimitFor(turn: readonly Message[], budget: number): number | undefined {
  let fixed = 0;
  const lengths: number[] = [];
  for (const m of turn) {
    if (m.role === "tool") {
      fixed += messageChars(m) - m.content.length;
      lengths.push(m.content.length);
    } else fixed += messageChars(m);
  }
  let room = budget - fixed - lengths.length * CUT_NOTE_CHARS;
  if (lengths.length === 0 || room <= 0) return undefined;
  // Water-filling: the short results stay whole, the long ones share what is left equally.
  lengths.sort((a, b) => a - b);
  for (let i = 0; i < lengths.length; i++) {
    const share = Math.floor(room / (lengths.length - i));
    const length = lengths[i] as number;
    if (length > share) return share >= MIN_KEPT_RESULT_CHARS ? share : undefined;
    room -= length;
  }
  return undefined;
}

/** Room for the note a cut result ends with. */
const CUT_NOTE_CHARS = 80;

/** A kept tool result cut to `limit` characters, with a note saying how much went. */
function cutResult(message: Message, limit: number): Message {
  if (message.role !== "tool" || message.content.length <= limit) return message;
  const cut = message.content.length - limit;
  return {
    ...message,
    content: `${message.content.slice(0, limit)}\n[… ${cut} more chars cut when the conversation was compacted]`,
  };
}

/** The user message that opens a compacted history: the original goal, then the summary. */
export function summaryMessage(first: Message | undefined, summary: string): UserMessage {
  const goal = first?.role === "user" ? (first.content.split(`\n\n${SUMMARY_OPEN}`)[0] ?? "") : "";
  const note =
    "The earlier part of this conversation was compacted into this summary; the most recent turns follow unchanged.";
  return {
    role: "user",
    content: `${goal}\n\n${SUMMARY_OPEN}\n${note}\n\n${summary.trim()}\n</conversation_summary>`,
  };
}

/**
 * The compacted history: the summary message, then the last `kept` messages without old reasoning, their
 * tool results cut to `resultLimit` characters when given (a last turn too large to keep whole).
 * Everything before a kept thinking block changed, so it may not go back (DESIGN "Providers"), except
 * in the tool-use cycle still open (the last assistant message, followed only by its tool results):
 * Anthropic requires that one's thinking block with its tool results and ignores earlier ones
 * (platform.claude.com/docs/en/docs/build-with-claude/context-windows, "extended thinking with tool
 * use": thinking blocks must be returned with the corresponding tool results, the only case where they
 * must be; previous thinking blocks are stripped from the context window).
 */
export function applyCompaction(
  messages: readonly Message[],
  summary: UserMessage,
  kept: number,
  resultLimit?: number,
): Message[] {
  const whole = kept > 0 ? messages.slice(-kept) : [];
  const tail = resultLimit !== undefined ? whole.map((m) => cutResult(m, resultLimit)) : whole;
  let open = tail.length - 1;
  while (open >= 0 && tail[open]?.role === "tool") open--;
  const openCycle = open < tail.length - 1 && tail[open]?.role === "assistant" ? open : -1;
  // The new history's messages are frozen as appended ones are (freeze.ts).
  return freezeHistory([summary, ...tail.map((m, i) => (i === openCycle ? m : withoutReasoning(m)))]);
}

function withoutReasoning(message: Message): Message {
  if (message.role !== "assistant" || !message.parts.some((p) => p.type === "reasoning")) return message;
  const parts = message.parts.filter((p) => p.type !== "reasoning");
  return { role: "assistant", parts: parts.length > 0 ? parts : [{ type: "text", text: "" }] };
}

/** The older messages as a plain transcript for the summariser (no tool protocol to keep valid). */
export function transcriptText(messages: readonly Message[], maxChars: number): string {
  const lines = messages.map(messageLine);
  let total = lines.reduce((n, l) => n + l.length + 2, 0);
  // Too long for the summariser's window: drop from the middle, keeping the start (the goal) and the end.
  let dropped = 0;
  while (total > maxChars && lines.length > 2) {
    const [removed] = lines.splice(1, 1);
    total -= (removed?.length ?? 0) + 2;
    dropped++;
  }
  if (dropped > 0) lines.splice(1, 0, `[${dropped} messages left out to fit the summariser's window]`);
  return lines.join("\n\n");
}

function messageLine(message: Message): string {
  if (message.role === "user") return `USER:\n${message.content}`;
  if (message.role === "tool") {
    const content =
      message.content.length > MAX_RESULT_CHARS
        ? `${message.content.slice(0, MAX_RESULT_CHARS)}\n[… ${message.content.length - MAX_RESULT_CHARS} more chars]`
        : message.content;
    return `TOOL RESULT (${message.toolName}${message.isError ? ", error" : ""}):\n${content}`;
  }
  return `ASSISTANT:\n${assistantLine(message)}`;
}

function assistantLine(message: AssistantMessage): string {
  const calls = assistantToolCalls(message).map((c) => `→ ${c.name} ${JSON.stringify(c.arguments)}`);
  return [assistantText(message).trim(), ...calls].filter((l) => l !== "").join("\n");
}

export interface CompactionDeps {
  who: AgentIdentity;
  emit: EmitFn;
  stream: StreamFn;
  resolveModel: (name: string) => ModelRef;
  modelInfo: (ref: ModelRef) => ModelInfo;
  signal?: AbortSignal;
  /** Called with the summariser's usage, to count its tokens and cost. */
  onUsage?: (usage: Usage, info: ModelInfo) => void;
}

export type CompactionOutcome =
  | { ok: true; messages: Message[] }
  | { ok: false; reason: string; nothingToDo?: boolean };

/**
 * Compacts a conversation now (the loop calls it past the threshold; a chat's `/compact` may call it
 * between turns). On success emits the `compaction` event (which the transcript records, so a resume
 * rebuilds the same history) and returns the new history; on failure returns why and emits nothing.
 */
export async function compactConversation(
  messages: readonly Message[],
  deps: CompactionDeps,
  trigger: {
    reason: CompactionReason;
    inputTokens?: number;
    contextWindow?: number;
    /** The kept tail's budget, in the loop's estimate (KEEP_TAIL_SHARE of the threshold's tokens). */
    keepTokens: number;
  },
): Promise<CompactionOutcome> {
  // Asked for, or after the provider said the window is full: at most half the conversation is kept,
  // so something is always summarised; past the threshold the budget alone is below the conversation.
  const keepTokens =
    trigger.reason === "threshold"
      ? trigger.keepTokens
      : Math.min(trigger.keepTokens, messages.slice(1).reduce((n, m) => n + messageChars(m), 0) / 8);
  const tail = chooseTail(messages, keepTokens);
  if (tail === undefined) {
    // Nothing before the kept tail: an empty or short conversation says so as a person would expect.
    const short = assistantTurns(messages) < MIN_SUMMARISED_TURNS;
    const reason = short ? "not enough turns to compact" : "the recent turns are all there is";
    return { ok: false, reason, nothingToDo: true };
  }
  const { cut, resultLimit } = tail;
  // Asked for or after a full window, a summary of less than MIN_SUMMARISED_TURNS turns is not worth its
  // model call: eliding old results (the caller's fallback) makes the same room. Past the threshold, or
  // when the last turn must be cut to fit (eliding never touches it), a compaction always happens.
  const few = assistantTurns(messages.slice(0, cut)) < MIN_SUMMARISED_TURNS;
  if (trigger.reason !== "threshold" && resultLimit === undefined && few)
    return { ok: false, reason: "not enough turns to compact", nothingToDo: true };
  let model: ModelRef;
  let info: ModelInfo;
  try {
    model = deps.resolveModel(COMPACTION_TIER);
    info = deps.modelInfo(model);
  } catch (error) {
    return { ok: false, reason: `cannot resolve the ${COMPACTION_TIER} tier: ${errorText(error)}` };
  }
  const older = messages.slice(0, cut);
  // About 4 characters a token; leave room for the prompt and the summary.
  const text = transcriptText(older, Math.floor(inputLimit(info) * 4 * 0.6));
  const reply = await streamReply(
    {
      model,
      system: SYSTEM,
      messages: [{ role: "user", content: `Summarise this conversation:\n\n${text}` }],
      tools: [],
      ...(deps.signal ? { signal: deps.signal } : {}),
    },
    deps.stream,
    deps.who,
    () => {},
  );
  deps.onUsage?.(reply.usage, info);
  if (!reply.ok) return { ok: false, reason: `${reply.error.kind}: ${reply.error.message}` };
  const summary = assistantText(reply.message).trim();
  if (summary === "") return { ok: false, reason: `${model.id} returned an empty summary` };
  const kept = messages.length - cut;
  const opening = summaryMessage(messages[0], summary);
  deps.emit(
    makeEvent(deps.who, "compaction", {
      reason: trigger.reason,
      model: model.id,
      summarized: cut,
      kept,
      ...(resultLimit !== undefined ? { resultLimit } : {}),
      ...(trigger.inputTokens !== undefined ? { inputTokens: trigger.inputTokens } : {}),
      ...(trigger.contextWindow !== undefined ? { contextWindow: trigger.contextWindow } : {}),
      summary: opening,
    }),
  );
  return { ok: true, messages: applyCompaction(messages, opening, kept, resultLimit) };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The loop's compaction trigger: remembers the input tokens the provider reported for the last request
 * and compacts before the next one once they pass `threshold` of the context window (or when asked).
 * A failed compaction turns it off for the rest of the run (a warning says so), and elision of old tool
 * results takes over at its own threshold (guards.ts).
 */
export class Compactor {
  private lastInput = 0;
  /** Provider tokens per estimated token, from the last request (at least 1): a provider that counts
   * more than the 4-characters estimate gets a proportionally smaller kept tail. */
  private ratio = 1;
  private off = false;
  private requested: CompactionReason | undefined;

  constructor(
    private readonly deps: CompactionDeps,
    private readonly threshold: number,
    /** The input limit of the model in use (its maximum input, else its window: inputLimit); it may
     * change when a stalled root escalates. */
    private readonly limit: () => number,
  ) {}

  /** Notes a request's reported usage and, when known, the loop's estimate of that request. */
  record(usage: Usage, estimatedTokens?: number): void {
    this.lastInput = reportedInputTokens(usage);
    if (estimatedTokens !== undefined && estimatedTokens > 0 && this.lastInput > 0)
      this.ratio = Math.max(1, this.lastInput / estimatedTokens);
  }

  /** Asks for a compaction before the next request, whatever the threshold (`/compact`, or the
   * provider's context_window stop). */
  request(reason: Exclude<CompactionReason, "threshold"> = "requested"): void {
    this.requested = reason;
  }

  /** True once a compaction failed in this run: elision is the fallback. */
  get failed(): boolean {
    return this.off;
  }

  /** The kept tail's budget in the loop's estimate: KEEP_TAIL_SHARE of the threshold's tokens. */
  keepTokens(): number {
    return Math.floor((KEEP_TAIL_SHARE * Math.min(1, this.threshold) * this.limit()) / this.ratio);
  }

  /** The compacted history when one is due and succeeds; undefined otherwise. */
  async maybeCompact(messages: readonly Message[]): Promise<Message[] | undefined> {
    const requested = this.requested;
    const limit = this.limit();
    const due = !this.off && this.lastInput >= this.threshold * limit;
    if (requested === undefined && !due) return undefined;
    this.requested = undefined;
    const keepTokens = this.keepTokens();
    const trigger = requested
      ? { reason: requested, keepTokens }
      : { reason: "threshold" as const, inputTokens: this.lastInput, contextWindow: limit, keepTokens };
    const outcome = await compactConversation(messages, this.deps, trigger);
    this.lastInput = 0;
    if (outcome.ok) return outcome.messages;
    if (outcome.nothingToDo) {
      if (requested === "requested") this.warn(`nothing to compact: ${outcome.reason}`);
      return undefined;
    }
    this.off = true;
    this.warn(`compaction failed (${outcome.reason}); old tool results will be elided instead`);
    return undefined;
  }

  private warn(message: string): void {
    this.deps.emit(makeEvent(this.deps.who, "warning", { message, code: "compaction" }));
  }
}
