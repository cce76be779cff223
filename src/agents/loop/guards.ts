import { createHash } from "node:crypto";
import { freezeHistory } from "../../kernel/conversation/freeze.ts";
import type { Message, ToolCall, ToolDefinition } from "../../kernel/index.ts";

/**
 * Guards of the loop that need no I/O: stall detection and context eliding.
 * (Budgets live in usage-tracker.ts; turn and time limits in run-loop.ts.)
 */

/** The message the loop injects when it detects a stall. */
export const STALL_NUDGE =
  "You are repeating yourself: the same tool call or the same result keeps coming back. " +
  "Stop calling tools now and answer with what you have: what was done, what is known, and what is still open.";

/** Arguments serialized with keys sorted at every level, so `{a,b}` and `{b,a}` compare equal. */
export function canonicalArgs(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** One executed call as the stall detector sees it. */
export interface StallEntry {
  call: ToolCall;
  /** The result text the model was sent. */
  result: string;
  /** A mutating call (write, edit, patch, exec, delegation) that succeeded: it may have changed the workspace. */
  mutated: boolean;
}

/**
 * Detects a stall: a step (a call's tool, key-sorted arguments and result) that already happened since
 * the workspace last changed, whatever other calls sit between the two (reads, failed writes, exec,
 * delegation); or three identical tool results in a row. The workspace changed when a mutating call
 * succeeded with a step never seen before in the run; a mutating step seen before only redoes what was
 * done, so it changes nothing. "read a, write b, read a, write b" with identical results is a stall, as
 * is "write a, write b, write a"; "read a, edit a, read a" (a new result) is progress.
 * One detector per run.
 */
export class StallDetector {
  /** Every step of the run so far, as its hash (see {@link stepHash}). */
  private readonly everSeen = new Set<bigint>();
  /** Steps since the workspace last changed, as hashes. */
  private sinceChange = new Set<bigint>();
  private lastResult: string | undefined;
  private sameResults = 0;

  /** Records one response's calls in order; returns the first that repeats an earlier step, if any. */
  repeatedCall(entries: StallEntry[]): ToolCall | undefined {
    let repeated: ToolCall | undefined;
    for (const { call, result, mutated } of entries) {
      const step = stepHash(call, result);
      if (this.sinceChange.has(step)) repeated ??= call;
      else if (mutated && !this.everSeen.has(step)) this.sinceChange = new Set();
      this.sinceChange.add(step);
      this.everSeen.add(step);
    }
    return repeated;
  }

  /** Records tool results in order; true once three identical results came in a row. */
  recordResults(results: { toolName: string; content: string }[]): boolean {
    let stalled = false;
    for (const r of results) {
      const key = `${r.toolName}\u0000${r.content}`;
      if (key === this.lastResult) this.sameResults++;
      else {
        this.lastResult = key;
        this.sameResults = 1;
      }
      if (this.sameResults >= 3) stalled = true;
    }
    return stalled;
  }
}

/**
 * A step as the first 64 bits of a SHA-256 of its tool, key-sorted arguments and result: the detector
 * keeps one bigint per step instead of every result's text, so its memory no longer grows with what
 * tools return over a long run. node:crypto, not Bun.hash, so the library runs under Node too; a false
 * repeat needs a 64-bit collision among one run's steps.
 */
function stepHash(call: ToolCall, result: string): bigint {
  return createHash("sha256")
    .update(`${call.name}\u0000${canonicalArgs(call.arguments)}\u0000${result}`)
    .digest()
    .readBigUInt64BE(0);
}

/**
 * Measures message sizes for the token estimate, remembering each message (one meter per run), and the
 * running total of the last history it measured: a history is only appended to between compactions, so
 * the next call compares message identities up to the first difference (a pointer check per message)
 * and measures only what follows it. A history rewritten anywhere (compaction, eliding) is measured again
 * from its first changed message, so the total is always that of the array passed in. A message's size is
 * remembered by identity: history messages are frozen (kernel/conversation/freeze.ts), so it cannot change.
 */
export class ContextMeter {
  private readonly sizes = new WeakMap<Message, number>();
  /** The messages of the last history measured, and `prefix[i]`: the chars of its first i messages. */
  private seen: Message[] = [];
  private prefix: number[] = [0];

  chars(m: Message): number {
    let n = this.sizes.get(m);
    if (n === undefined) {
      n = messageChars(m);
      this.sizes.set(m, n);
    }
    return n;
  }

  /** The chars of every message of `messages`. */
  total(messages: readonly Message[]): number {
    const shared = Math.min(messages.length, this.seen.length);
    let same = 0;
    while (same < shared && messages[same] === this.seen[same]) same++;
    this.seen.length = same;
    this.prefix.length = same + 1;
    let chars = this.prefix[same] as number;
    for (let i = same; i < messages.length; i++) {
      const m = messages[i] as Message;
      chars += this.chars(m);
      this.seen.push(m);
      this.prefix.push(chars);
    }
    return chars;
  }
}

/** A rough token estimate (4 characters a token) of what a request sends. */
export function estimateTokens(
  system: string,
  messages: Message[],
  tools: ToolDefinition[],
  meter: ContextMeter = new ContextMeter(),
): number {
  const chars = system.length + JSON.stringify(tools).length + meter.total(messages);
  return Math.ceil(chars / 4);
}

/** What one image in a tool result is counted as (in characters, 4 to a token): Anthropic scales an image
 * down past about 1,600 tokens (platform.claude.com/docs/en/build-with-claude/vision "Evaluate image
 * size"), so its base64 length would overstate it many times. */
const IMAGE_CHARS = 1_600 * 4;

/** The characters a message counts for in the token estimate (4 to a token; an image as IMAGE_CHARS). */
export function messageChars(m: Message): number {
  if (m.role === "user") return m.content.length + 16;
  if (m.role === "tool") return m.content.length + 16 + (m.images?.length ?? 0) * IMAGE_CHARS;
  let n = 16;
  for (const p of m.parts) {
    if (p.type === "tool_call") n += p.name.length + JSON.stringify(p.arguments).length;
    else n += p.text.length;
  }
  return n;
}

/**
 * The fraction of the context window above which old tool results are elided once compaction failed in
 * a run. Eliding rewrites earlier messages (every later request misses the provider's prompt cache), so
 * while compaction works it acts only past {@link LAST_RESORT_ELIDE_THRESHOLD}: a single turn too large.
 */
export const ELIDE_THRESHOLD = 0.75;

/** The estimate past which old tool results are elided even while compaction works. */
export const LAST_RESORT_ELIDE_THRESHOLD = 0.95;

/** Tool results shorter than this are not worth eliding. */
const MIN_ELIDE_CHARS = 200;

/**
 * Elides the oldest tool results (content replaced by `[elided: N chars]`) until the estimate is
 * under `limitTokens`. Keeps the first user message and the latest `keepRecent` assistant turns with
 * their results; only contents change, so a tool call is never separated from its result.
 * Returns a new array (messages that change are copied) and how many results were elided.
 */
export function elideOldToolResults(
  messages: Message[],
  options: {
    system: string;
    tools: ToolDefinition[];
    limitTokens: number;
    keepRecent?: number;
    meter?: ContextMeter;
  },
): { messages: Message[]; elided: number } {
  const keepRecent = options.keepRecent ?? 2;
  let estimate = estimateTokens(options.system, messages, options.tools, options.meter);
  if (estimate <= options.limitTokens) return { messages, elided: 0 };
  // Index where the protected tail begins: the keepRecent-th assistant message from the end.
  let tailStart = messages.length;
  let seen = 0;
  for (let i = messages.length - 1; i >= 0 && seen < keepRecent; i--) {
    if (messages[i]?.role === "assistant") {
      seen++;
      tailStart = i;
    }
  }
  const out = messages.slice();
  let elided = 0;
  for (let i = 0; i < tailStart && estimate > options.limitTokens; i++) {
    const m = out[i];
    if (m?.role !== "tool" || m.content.length < MIN_ELIDE_CHARS || m.content.startsWith("[elided:"))
      continue;
    const note = `[elided: ${m.content.length} chars]`;
    estimate -= Math.floor((m.content.length - note.length + (m.images?.length ?? 0) * IMAGE_CHARS) / 4);
    // Its images go with its text.
    const { images: _images, ...rest } = m;
    out[i] = { ...rest, content: note };
    elided++;
  }
  // The copies are frozen as appended messages are (freeze.ts).
  return { messages: freezeHistory(dropStaleThinking(messages, out)), elided };
}

/**
 * Anthropic thinking blocks go back only while everything before them is unchanged: once an earlier
 * message changed, "that block and every later thinking block are invalid"
 * (platform.claude.com/docs/en/build-with-claude/preserved-thinking, prefix check), and the documented
 * fix for code that trims older turns is to "remove the thinking of the preserved turns"
 * (.../preserved-thinking/prefix-checks). So every Anthropic reasoning part after the first message
 * that differs between `before` and `after` is dropped. Other providers' reasoning is kept (Gemini
 * checks only that the current turn's function calls carry their signatures, which stay on the calls).
 */
export function dropStaleThinking(before: readonly Message[], after: Message[]): Message[] {
  const first = after.findIndex((m, i) => m !== before[i]);
  if (first < 0) return after;
  for (let i = first + 1; i < after.length; i++) {
    const m = after[i];
    if (m?.role !== "assistant") continue;
    const parts = m.parts.filter((p) => !(p.type === "reasoning" && p.provider === "anthropic"));
    if (parts.length !== m.parts.length) after[i] = { ...m, parts };
  }
  return after;
}

/**
 * Elides old tool results harder than the 75% rule, after the model reported a full context window:
 * aims at half the current estimate and protects only the latest assistant turn. Returns the shorter
 * history, or undefined when nothing could be elided.
 */
export function compactForRetry(
  messages: Message[],
  options: { system: string; tools: ToolDefinition[]; meter?: ContextMeter },
): Message[] | undefined {
  const estimate = estimateTokens(options.system, messages, options.tools, options.meter);
  const result = elideOldToolResults(messages, {
    ...options,
    limitTokens: Math.floor(estimate / 2),
    keepRecent: 1,
  });
  return result.elided > 0 ? result.messages : undefined;
}
