/**
 * Builds a normalized AssistantMessage while a provider stream arrives, and produces the matching
 * start/delta/end StreamEvents. Adapters name each open part by a key of their own (a content-block
 * index, a tool_calls index, ...); event indexes are positions in `message.parts`.
 */
import type {
  AssistantMessage,
  AssistantPart,
  ProviderKind,
  ToolCall,
} from "../../kernel/conversation/messages.ts";
import type { StopReason, StreamEvent } from "../../kernel/conversation/stream.ts";
import type { Usage } from "../../kernel/conversation/usage.ts";

type OpenKind = "text" | "reasoning" | "tool_call";

/** Provider facts an adapter may set on an open part (see `annotate`). */
export interface PartAnnotation {
  itemId?: string;
  phase?: "commentary" | "final_answer";
  signature?: string;
  applyPatchOperation?: ToolCall["applyPatchOperation"];
}

interface OpenPart {
  index: number;
  kind: OpenKind;
  /** Raw argument text of a tool call, joined from fragments. */
  rawArgs: string;
  /** Arguments given whole (Gemini) or built from partial args; wins over rawArgs. */
  args?: Record<string, unknown>;
}

/** Parses a tool call's argument text: empty means `{}`; invalid JSON keeps the text and the reason. */
export function parseToolArguments(raw: string): Pick<ToolCall, "arguments" | "rawArguments" | "parseError"> {
  if (raw.trim() === "") return { arguments: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      return { arguments: value as Record<string, unknown> };
    }
    return { arguments: {}, rawArguments: raw, parseError: "tool arguments are not a JSON object" };
  } catch (err) {
    return { arguments: {}, rawArguments: raw, parseError: err instanceof Error ? err.message : String(err) };
  }
}

export class MessageBuilder {
  readonly parts: AssistantPart[] = [];
  /** See AssistantMessage.continuationToken. */
  continuationToken: string | undefined;
  private readonly open = new Map<string, OpenPart>();
  private events: StreamEvent[] = [];

  constructor(private readonly provider: ProviderKind) {}

  /** Events produced since the last drain. */
  drain(): StreamEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  isOpen(key: string): boolean {
    return this.open.has(key);
  }

  /** Appends answer text to the part `key`, opening it first. Empty deltas open nothing. */
  text(key: string, delta: string): void {
    if (delta === "") return;
    const part = this.ensure(key, "text");
    const target = this.parts[part.index];
    if (target?.type !== "text") return;
    target.text += delta;
    this.events.push({ type: "text_delta", index: part.index, delta });
  }

  /** Sets an opaque signature on the text part `key`, or on the last text part when `key` is not open. */
  textSignature(key: string, signature: string): void {
    const open = this.open.get(key);
    let target = open ? this.parts[open.index] : undefined;
    if (target?.type !== "text") target = [...this.parts].reverse().find((p) => p.type === "text");
    if (target?.type === "text") target.signature = signature;
    else this.parts.push({ type: "text", text: "", signature });
  }

  /** Adds an empty text part that only carries a signature (Gemini's trailing `{text: "", thoughtSignature}`),
   * kept as its own part so it goes back exactly where it came. */
  signedEmptyText(signature: string): void {
    this.parts.push({ type: "text", text: "", signature });
  }

  /** Appends reasoning text to the part `key`, opening it first. Never part of the answer. */
  reasoning(key: string, delta: string): void {
    const part = this.ensure(key, "reasoning");
    const target = this.parts[part.index];
    if (target?.type !== "reasoning" || delta === "") return;
    target.text += delta;
    this.events.push({ type: "reasoning_delta", index: part.index, delta });
  }

  /** Appends to the signature of the reasoning part `key` (opening it when needed). */
  reasoningSignature(key: string, signature: string): void {
    const part = this.ensure(key, "reasoning");
    const target = this.parts[part.index];
    if (target?.type === "reasoning") target.signature = (target.signature ?? "") + signature;
  }

  /** Adds a redacted reasoning block (its opaque data kept as the signature). */
  redactedReasoning(data: string): void {
    this.parts.push({
      type: "reasoning",
      text: "",
      signature: data,
      redacted: true,
      provider: this.provider,
    });
  }

  /** Opens a tool call. */
  toolStart(key: string, id: string, name: string, signature?: string): void {
    this.close(key);
    const index = this.parts.length;
    const part: AssistantPart = { type: "tool_call", id, name, arguments: {} };
    if (signature) part.signature = signature;
    this.parts.push(part);
    this.open.set(key, { index, kind: "tool_call", rawArgs: "" });
    this.events.push({ type: "tool_call_start", index, id, name });
  }

  /** Appends a fragment of argument text to the open tool call `key`. */
  toolArgs(key: string, fragment: string): void {
    const part = this.open.get(key);
    if (part?.kind !== "tool_call" || fragment === "") return;
    part.rawArgs += fragment;
    this.events.push({ type: "tool_call_delta", index: part.index, delta: fragment });
  }

  /** Gives the open tool call `key` its arguments as an object (replaces argument text). */
  toolArgsObject(key: string, args: Record<string, unknown>, fragment?: string): void {
    const part = this.open.get(key);
    if (part?.kind !== "tool_call") return;
    part.args = args;
    const delta = fragment ?? JSON.stringify(args);
    if (delta !== "") this.events.push({ type: "tool_call_delta", index: part.index, delta });
  }

  /** The arguments object of the open tool call `key` (created empty), for incremental building. */
  toolArgsTarget(key: string): Record<string, unknown> | undefined {
    const part = this.open.get(key);
    if (part?.kind !== "tool_call") return undefined;
    part.args ??= {};
    return part.args;
  }

  /** Sets the signature on the open tool call `key`. */
  toolSignature(key: string, signature: string): void {
    const part = this.open.get(key);
    const target = part ? this.parts[part.index] : undefined;
    if (target?.type === "tool_call") target.signature = signature;
  }

  /**
   * Sets provider facts on the open part `key` (OpenAI Responses: item ids, a message's phase, a
   * reasoning item's encrypted content, a built-in apply_patch operation); fields a part cannot carry
   * are ignored.
   */
  annotate(key: string, fields: PartAnnotation): void {
    const open = this.open.get(key);
    const target = open ? this.parts[open.index] : undefined;
    if (!target) return;
    if (fields.itemId !== undefined) target.itemId = fields.itemId;
    if (target.type === "text" && fields.phase !== undefined) target.phase = fields.phase;
    if (target.type === "reasoning" && fields.signature !== undefined) target.signature = fields.signature;
    if (target.type === "tool_call" && fields.applyPatchOperation !== undefined) {
      target.applyPatchOperation = fields.applyPatchOperation;
    }
  }

  /** Closes the part `key`, emitting text_end or tool_call_end. */
  close(key: string): void {
    const part = this.open.get(key);
    if (!part) return;
    this.open.delete(key);
    const target = this.parts[part.index];
    if (target?.type === "text") {
      this.events.push({ type: "text_end", index: part.index, text: target.text });
    } else if (target?.type === "tool_call") {
      const parsed = part.args ? { arguments: part.args } : parseToolArguments(part.rawArgs);
      Object.assign(target, parsed);
      const { type: _type, ...call } = target;
      this.events.push({ type: "tool_call_end", index: part.index, call: { ...call } });
    }
  }

  /** Closes every open part, in part order. */
  closeAll(): void {
    const keys = [...this.open.entries()].sort((a, b) => a[1].index - b[1].index).map(([key]) => key);
    for (const key of keys) this.close(key);
  }

  /**
   * The end of a complete stream: closes every open part and returns the remaining events, the final
   * usage and the one `done` event. Every adapter ends the same way through here.
   */
  finish(end: {
    stopReason: StopReason;
    rawStopReason: string | null;
    usage: Usage;
    model: string;
  }): StreamEvent[] {
    this.closeAll();
    return [
      ...this.drain(),
      { type: "usage", usage: { ...end.usage } },
      { type: "done", ...end, message: this.message() },
    ];
  }

  /** The message so far (a snapshot; parts are copied). */
  message(): AssistantMessage {
    const message: AssistantMessage = { role: "assistant", parts: this.parts.map((part) => ({ ...part })) };
    if (this.continuationToken) message.continuationToken = this.continuationToken;
    return message;
  }

  private ensure(key: string, kind: OpenKind): OpenPart {
    const existing = this.open.get(key);
    if (existing?.kind === kind) return existing;
    if (existing) this.close(key);
    const index = this.parts.length;
    const part: OpenPart = { index, kind, rawArgs: "" };
    if (kind === "text") {
      this.parts.push({ type: "text", text: "" });
      this.events.push({ type: "text_start", index });
    } else {
      this.parts.push({ type: "reasoning", text: "", provider: this.provider });
    }
    this.open.set(key, part);
    return part;
  }
}
