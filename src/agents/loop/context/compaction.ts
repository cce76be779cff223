import { freezeHistory } from "../../../kernel/conversation/freeze.ts";
import {
  type AgentIdentity,
  type AssistantMessage,
  assistantText,
  assistantToolCalls,
  type EmitFn,
  type Message,
  type ModelInfo,
  type ModelRef,
  makeEvent,
  type StreamFn,
  type Usage,
  type UserMessage,
} from "../../../kernel/index.ts";
import { streamReply } from "../stream-reply.ts";
import SYSTEM from "./compaction-prompt.txt" with { type: "text" };

/**
 * Compaction (docs/run.md "Compaction"): once the provider reports that a conversation's input passed a share
 * of the model's context window, the older part is summarised by one fast-tier model call into a
 * structured summary (goal, decisions, files touched, open threads). The history becomes the first
 * user message's goal with that summary, then the recent turns unchanged: the tail starts at an
 * assistant message, so every tool call in it keeps its result and none is orphaned. Old reasoning
 * (thinking blocks) is dropped from the tail: a thinking block may only go back while everything
 * before it is unchanged (the open tool-use cycle keeps its own, see applyCompaction). Between compactions the loop only appends, so every request extends the
 * previous one and provider prompt caches hit.
 */

/** Why a compaction happened: past the threshold, asked for (`/compact`), or the provider's full window. */
export type CompactionReason = "threshold" | "requested" | "context_window";

/** Default share of the context window (input tokens as last reported) that triggers compaction. */
export const COMPACT_THRESHOLD = 0.8;

/** Assistant turns kept verbatim after the summary. */
export const KEEP_RECENT_TURNS = 4;

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
 * Where the kept tail begins: the `keep`-th assistant message from the end. Undefined when there is
 * nothing older than the first user message to summarise.
 */
export function compactionCut(messages: readonly Message[], keep = KEEP_RECENT_TURNS): number | undefined {
  let seen = 0;
  for (let i = messages.length - 1; i > 0; i--) {
    if (messages[i]?.role !== "assistant") continue;
    seen++;
    if (seen === keep) return i > 1 ? i : undefined;
  }
  // Fewer assistant turns than `keep`: keep them all, summarise nothing.
  return undefined;
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
 * The compacted history: the summary message, then the last `kept` messages without old reasoning.
 * Everything before a kept thinking block changed, so it may not go back (DESIGN "Providers"), except
 * in the tool-use cycle still open (the last assistant message, followed only by its tool results):
 * Anthropic requires that one's thinking block with its tool results and ignores earlier ones
 * (platform.claude.com/docs/en/docs/build-with-claude/context-windows, "extended thinking with tool
 * use": thinking blocks must be returned with the corresponding tool results, the only case where they
 * must be; previous thinking blocks are stripped from the context window).
 */
export function applyCompaction(messages: readonly Message[], summary: UserMessage, kept: number): Message[] {
  const tail = kept > 0 ? messages.slice(-kept) : [];
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
  trigger: { reason: CompactionReason; inputTokens?: number; contextWindow?: number },
): Promise<CompactionOutcome> {
  const cut = compactionCut(messages);
  if (cut === undefined) return { ok: false, reason: "not enough turns to compact", nothingToDo: true };
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
  const text = transcriptText(older, Math.floor(info.contextWindow * 4 * 0.6));
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
      ...(trigger.inputTokens !== undefined ? { inputTokens: trigger.inputTokens } : {}),
      ...(trigger.contextWindow !== undefined ? { contextWindow: trigger.contextWindow } : {}),
      summary: opening,
    }),
  );
  return { ok: true, messages: applyCompaction(messages, opening, kept) };
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
  private off = false;
  private requested: CompactionReason | undefined;

  constructor(
    private readonly deps: CompactionDeps,
    private readonly threshold: number,
    /** The context window of the model in use (it may change when a stalled root escalates). */
    private readonly contextWindow: () => number,
  ) {}

  /** Notes a request's reported usage. */
  record(usage: Usage): void {
    this.lastInput = reportedInputTokens(usage);
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

  /** The compacted history when one is due and succeeds; undefined otherwise. */
  async maybeCompact(messages: readonly Message[]): Promise<Message[] | undefined> {
    const requested = this.requested;
    const window = this.contextWindow();
    const due = !this.off && this.lastInput >= this.threshold * window;
    if (requested === undefined && !due) return undefined;
    this.requested = undefined;
    const trigger = requested
      ? { reason: requested }
      : { reason: "threshold" as const, inputTokens: this.lastInput, contextWindow: window };
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
