/**
 * Normalized request -> Anthropic Messages request (beta surface, for thinking block binding), and
 * Anthropic stop reasons -> StopReason. The stable prefix (system, tools) and the last message block
 * carry `cache_control` for prompt caching.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import type { Message, ToolResultMessage } from "../../kernel/conversation/messages.ts";
import type { ModelRequest, ResponseSchema, StopReason } from "../../kernel/conversation/stream.ts";
import type { ToolDefinition } from "../../kernel/conversation/tools.ts";
import { hasPrefixCheck, modelInfo, reasoningSupport } from "../catalog.ts";
import { effortFor } from "./effort.ts";

type Beta = Anthropic.Beta.Messages.MessageCreateParamsStreaming;
type Block = Anthropic.Beta.Messages.BetaContentBlockParam;
type MessageParam = Anthropic.Beta.Messages.BetaMessageParam;
type Role = "user" | "assistant";

const EPHEMERAL = { type: "ephemeral" } as const;

/**
 * Beta headers the adapter sends: `thinking-binding-controls-2026-08-01` lets a request set
 * `thinking.block_binding.prefix_mismatch_behavior` and makes the API report dropped blocks in
 * `message_start.message.input_transformations` (platform.claude.com/docs/.../preserved-thinking/
 * fix-bound-to-a-different-conversation); `model-context-window-exceeded-2025-08-26` turns an input that
 * fills the window into the `model_context_window_exceeded` stop reason instead of a 400.
 */
export const BINDING_BETA = "thinking-binding-controls-2026-08-01";
export const CONTEXT_WINDOW_BETA = "model-context-window-exceeded-2025-08-26";

/** The betas for a model: the binding beta only where the API runs the prefix check (the prefix-checks
 * page lists fable-5-2, mythos-5-2, fable-5-1, mythos-5-1, opus-5-5, sonnet-5-5, haiku-5-5; other models
 * answer "thinking.adaptive.block_binding: Extra inputs are not permitted"). */
export function anthropicBetas(modelId: string): string[] {
  return hasPrefixCheck(modelId) ? [BINDING_BETA, CONTEXT_WINDOW_BETA] : [CONTEXT_WINDOW_BETA];
}

/** A tool result's content: its text, and its images as image blocks after it (tool_result `content`
 * takes text and image blocks: BetaToolResultBlockParam in @anthropic-ai/sdk resources/beta/messages). */
type ResultBlock = Exclude<
  Anthropic.Beta.Messages.BetaToolResultBlockParam["content"],
  string | undefined
>[number];

function toolResultContent(message: ToolResultMessage): string | ResultBlock[] {
  if (!message.images?.length) return message.content;
  const text: ResultBlock[] = message.content === "" ? [] : [{ type: "text", text: message.content }];
  return [
    ...text,
    ...message.images.map(
      (image): ResultBlock => ({
        type: "image",
        source: { type: "base64", media_type: image.mediaType, data: image.data },
      }),
    ),
  ];
}

function blocksOf(message: Message): { role: Role; blocks: Block[] } {
  switch (message.role) {
    case "user":
      return {
        role: "user",
        blocks: message.content === "" ? [] : [{ type: "text", text: message.content }],
      };
    case "tool":
      return {
        role: "user",
        blocks: [
          {
            type: "tool_result",
            tool_use_id: message.toolCallId,
            content: toolResultContent(message),
            ...(message.isError ? { is_error: true } : {}),
          },
        ],
      };
    case "assistant": {
      const blocks: Block[] = [];
      for (const part of message.parts) {
        if (part.type === "text") {
          if (part.text !== "") blocks.push({ type: "text", text: part.text });
        } else if (part.type === "tool_call") {
          blocks.push({ type: "tool_use", id: part.id, name: part.name, input: part.arguments });
        } else if (part.provider === "anthropic" && part.signature) {
          // Thinking blocks go back unchanged, and only to Anthropic.
          blocks.push(
            part.redacted
              ? { type: "redacted_thinking", data: part.signature }
              : { type: "thinking", thinking: part.text, signature: part.signature },
          );
        }
      }
      return { role: "assistant", blocks };
    }
  }
}

type Turn = { role: Role; content: Block[] };

/**
 * What a stream function remembers between requests, so a long session converts each message once
 * instead of the whole history every turn. History messages are never changed in place (they are frozen
 * once in a run's history, kernel/conversation/freeze.ts; eliding, compaction and escalation put copies
 * in the list), so a message object always converts the same;
 * blocks and finished turns are shared between requests and never mutated (see convertMessages).
 */
export interface ConvertMemo {
  /** Each message's blocks. */
  readonly blocks: WeakMap<Message, { role: Role; blocks: Block[] }>;
  /** The previous request's messages and merged turns (without the cache mark): a request whose messages
   * start with the same message objects (the normal turn, between compactions) converts only the rest. */
  previous?: { messages: readonly Message[]; turns: readonly Turn[] };
}

export function newConvertMemo(): ConvertMemo {
  return { blocks: new WeakMap() };
}

function memoBlocksOf(message: Message, memo: ConvertMemo | undefined): { role: Role; blocks: Block[] } {
  let converted = memo?.blocks.get(message);
  if (converted === undefined) {
    converted = blocksOf(message);
    memo?.blocks.set(message, converted);
  }
  return converted;
}

/** True when `messages` begins with exactly the message objects of `previous` (by identity). */
function extendsPrevious(messages: readonly Message[], previous: readonly Message[]): boolean {
  if (messages.length < previous.length) return false;
  for (let i = 0; i < previous.length; i++) if (messages[i] !== previous[i]) return false;
  return true;
}

/**
 * Converts messages, merging consecutive same-role turns (tool results become one user turn).
 * Whole-history arrays are copied with slice(), never with spread: in Bun 1.4 `[...array]` costs 10-50
 * times slice()'s time per element (bench/long-session.ts: it grew a long session's turns).
 */
export function convertMessages(messages: Message[], memo?: ConvertMemo): MessageParam[] {
  const previous = memo?.previous;
  let out: Turn[] = [];
  let start = 0;
  if (previous && extendsPrevious(messages, previous.messages)) {
    out = previous.turns.slice();
    start = previous.messages.length;
    // The last turn may still grow (this turn's tool results join it): merge into a copy.
    const last = out.at(-1);
    if (last) out[out.length - 1] = { role: last.role, content: [...last.content] };
  }
  for (let i = start; i < messages.length; i++) {
    const message = messages[i] as Message;
    const { role, blocks } = memoBlocksOf(message, memo);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) {
      // Tool results must come first in a user turn.
      if (message.role === "tool") {
        const firstOther = last.content.findIndex((b) => b.type !== "tool_result");
        if (firstOther >= 0) last.content.splice(firstOther, 0, ...blocks);
        else last.content.push(...blocks);
      } else last.content.push(...blocks);
    } else out.push({ role, content: [...blocks] }); // a fresh array: later merges must not grow the memo's
  }
  if (memo) memo.previous = { messages: messages.slice(), turns: out };
  const last = out.at(-1);
  const lastBlock = last?.content.at(-1);
  if (last && lastBlock && lastBlock.type !== "thinking" && lastBlock.type !== "redacted_thinking") {
    // Copies carry the mark: the memo's turn and block must not keep it into the next request.
    const marked = { ...lastBlock, cache_control: EPHEMERAL } as Block;
    const turns = out.slice();
    turns[turns.length - 1] = { role: last.role, content: [...last.content.slice(0, -1), marked] };
    return turns;
  }
  return out.slice();
}

/** Tool definitions; the last one marks the end of the cached prefix. */
export function convertTools(tools: ToolDefinition[]): Anthropic.Beta.Messages.BetaToolUnion[] {
  return tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: "object" as const },
    ...(i === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}

/**
 * Thinking and effort for the model (platform.claude.com models overview, .../build-with-claude/effort):
 * the Claude 5 family takes `thinking: {type: "adaptive"}` and `output_config.effort` low..max, and so do
 * Claude Opus 4.6-4.8 and Sonnet 4.6 when the user asks for an effort (their efforts as listed). We ask
 * for `display: "summarized"`: Sonnet 5.5 defaults to `omitted` and returns the text it writes between
 * tool calls only as thinking blocks (models/sonnet-5-5/whats-new-sonnet-5-5, "Text between tool calls"),
 * which we show as progress. `prefix_mismatch_behavior: "drop_block"`: a thinking block whose prefix
 * changed is dropped (and reported) instead of failing the request with a 400 (Fable 5.2 rejects it
 * on every account otherwise: models/fable-5-2/whats-new-fable-5-2).
 */
function applyThinking(params: Beta, request: ModelRequest): void {
  const support = reasoningSupport(request.model.id);
  if (!support?.adaptiveThinking) return;
  // Claude Opus 4.6-4.8 and Sonnet 4.6 think only when asked (overrides.ts): thinking with a requested effort.
  if (support.thinkingOptIn && request.reasoningEffort === undefined) return;
  params.thinking = { type: "adaptive", display: "summarized" };
  // Only models that run the prefix check accept block_binding (see anthropicBetas).
  if (hasPrefixCheck(request.model.id))
    params.thinking.block_binding = { prefix_mismatch_behavior: "drop_block" };
  const effort = effortFor(request);
  // Claude has no `none`/`minimal`: effortFor already mapped them up to `low`.
  if (effort === "low" || effort === "medium" || effort === "high" || effort === "xhigh" || effort === "max")
    params.output_config = { effort };
}

/**
 * The streaming request body. `max_tokens` is the catalog's output limit for the model unless the
 * request sets one, never above a known model's limit (the API refuses a larger value with a 400);
 * an unknown model gets the catalog's conservative default unless the request says otherwise.
 */
export function buildRequest(request: ModelRequest, memo?: ConvertMemo): Beta {
  const info = modelInfo(request.model.id, "anthropic");
  const wanted = request.maxOutputTokens ?? info.maxOutputTokens;
  const params: Beta = {
    model: request.model.id,
    max_tokens: info.known ? Math.min(wanted, info.maxOutputTokens) : wanted,
    messages: convertMessages(request.messages, memo),
    stream: true,
    betas: anthropicBetas(request.model.id),
  };
  if (request.system !== "")
    params.system = [{ type: "text", text: request.system, cache_control: EPHEMERAL }];
  if (request.tools.length > 0) params.tools = convertTools(request.tools);
  applyThinking(params, request);
  const format = request.responseSchema ? outputFormat(request.responseSchema) : undefined;
  // Effort and format share `output_config`: keep what applyThinking set.
  if (format) params.output_config = { ...params.output_config, format };
  // `temperature` is not sent: Claude 5 models refuse non-default sampling parameters with a 400
  // (models/sonnet-5/overview), and thinking requires the default.
  return params;
}

/**
 * The structured-output format (`output_config.format`, platform.claude.com/docs/en/build-with-claude/
 * structured-outputs; messages.d.ts OutputConfig/JSONOutputFormat), allowed alongside tools. The SDK's
 * transformJSONSchema turns the schema into the subset Anthropic accepts: every object closed with
 * `additionalProperties: false` (else HTTP 400 "For 'object' type, 'additionalProperties' must be
 * explicitly set to false", veryfront/veryfront-code#3918), unsupported constraints moved into the
 * description. A closed schema only narrows the answers, and our own check still applies the user's
 * whole schema. A schema it cannot transform (no `type`) is not sent: the answer is then checked and
 * re-asked once (src/agents/loop/output-schema.ts).
 */
export function outputFormat(format: ResponseSchema): Anthropic.JSONOutputFormat | undefined {
  try {
    return { type: "json_schema", schema: transformJSONSchema(format.schema) };
  } catch {
    return undefined;
  }
}

/** Maps Anthropic's stop_reason to the normalized StopReason. */
export function mapStopReason(raw: string | null): StopReason {
  switch (raw) {
    case null:
      return "none";
    case "end_turn":
    case "stop_sequence":
      return "end";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
      return "max_tokens";
    // The context window filled during generation (platform.claude.com .../handling-stop-reasons).
    case "model_context_window_exceeded":
      return "context_window";
    // A long server-side turn paused; re-sending the conversation continues it.
    case "pause_turn":
      return "pause";
    case "refusal":
      return "refusal";
    default:
      return "other";
  }
}
