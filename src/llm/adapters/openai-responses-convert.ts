/**
 * Normalized request -> OpenAI Responses request (stateless: `store: false`, reasoning carried as
 * encrypted content), and Responses usage / built-in apply_patch operations -> normalized values.
 *
 * Sources: the `openai` SDK's resources/responses/responses.d.ts (7.57, read again in 7.59: ResponseInputItem,
 * ResponseReasoningItem "use the completed reasoning item and its `encrypted_content` from the
 * `response.output_item.done` event … especially important when `store` is `false`",
 * ResponseOutputMessage.phase "preserve and resend phase on all assistant messages", ResponseUsage);
 * developers.openai.com/api/docs/guides/deployment-checklist (no temperature/top_p unless effort none);
 * test/fixtures/conformance/recorded-exchanges/openai-responses/gpt-5-5-reasoning-function-call-2turn
 * (the items a real client sends back on turn 2).
 */

import { createHash } from "node:crypto";
import type OpenAI from "openai";
import type {
  AssistantMessage,
  AssistantPart,
  Message,
  ToolCall,
  ToolResultMessage,
} from "../../kernel/conversation/messages.ts";
import type { ModelRequest } from "../../kernel/conversation/stream.ts";
import { emptyUsage, type Usage } from "../../kernel/conversation/usage.ts";
import { knownNotToReason, supportsReasoningSummary } from "../catalog.ts";
import { acceptedEffort, effectiveEffort } from "./effort.ts";
import { openaiJsonSchema } from "./response-schema.ts";

type InputItem = OpenAI.Responses.ResponseInputItem;
type Params = OpenAI.Responses.ResponseCreateParamsStreaming;
type TextPart = Extract<AssistantPart, { type: "text" }>;

/** A reasoning item goes back only with its id and encrypted content: without the content a
 * `store: false` request is answered 404 "Item with id 'rs_…' not found". */
function reasoningItem(part: Extract<AssistantPart, { type: "reasoning" }>): InputItem | null {
  if (part.provider !== "openai" || !part.itemId || !part.signature) return null;
  return {
    type: "reasoning",
    id: part.itemId,
    encrypted_content: part.signature,
    summary: part.text ? [{ type: "summary_text", text: part.text }] : [],
  };
}

/** Consecutive text parts of one message item go back as that item, with its id and phase. */
function messageItem(parts: TextPart[]): InputItem {
  const text = parts.map((p) => p.text).join("");
  const [first] = parts;
  if (!first?.itemId) return { role: "assistant", content: text };
  const item: OpenAI.Responses.ResponseOutputMessage = {
    type: "message",
    role: "assistant",
    id: first.itemId,
    status: "completed",
    content: [{ type: "output_text", text, annotations: [] }],
  };
  if (first.phase) item.phase = first.phase;
  return item;
}

function callItem(call: ToolCall): InputItem {
  if (call.applyPatchOperation) {
    return {
      type: "apply_patch_call",
      id: call.itemId ?? call.id,
      call_id: call.id,
      status: "completed",
      operation: call.applyPatchOperation as OpenAI.Responses.ResponseApplyPatchToolCall["operation"],
    } as InputItem;
  }
  const item: OpenAI.Responses.ResponseFunctionToolCall = {
    type: "function_call",
    call_id: call.id,
    name: call.name,
    arguments: call.rawArguments ?? JSON.stringify(call.arguments),
  };
  if (call.itemId) item.id = call.itemId;
  return item;
}

function assistantItems(message: AssistantMessage, builtinCalls: Set<string>): InputItem[] {
  const items: InputItem[] = [];
  let texts: TextPart[] = [];
  const flush = () => {
    if (texts.length > 0) items.push(messageItem(texts));
    texts = [];
  };
  for (const part of message.parts) {
    if (part.type === "text") {
      if (texts.length > 0 && texts[0]?.itemId !== part.itemId) flush();
      if (part.text !== "" || part.itemId) texts.push(part);
      continue;
    }
    flush();
    if (part.type === "reasoning") {
      const item = reasoningItem(part);
      if (item) items.push(item);
    } else {
      const { type: _type, ...call } = part;
      if (call.applyPatchOperation) builtinCalls.add(call.id);
      items.push(callItem(call));
    }
  }
  flush();
  return items;
}

/** A function call's output: its text, and its images as `input_image` items with a data URL after it
 * (FunctionCallOutput.output is "Text, image, or file output of the function tool call":
 * openai resources/responses/responses.d.ts ResponseFunctionCallOutputItemList, ResponseInputImageContent). */
function functionOutput(
  message: ToolResultMessage,
): string | OpenAI.Responses.ResponseFunctionCallOutputItemList {
  if (!message.images?.length) return message.content;
  return [
    ...(message.content === "" ? [] : [{ type: "input_text" as const, text: message.content }]),
    ...message.images.map((image) => ({
      type: "input_image" as const,
      image_url: `data:${image.mediaType};base64,${image.data}`,
    })),
  ];
}

/**
 * Each history message's input items, kept between one stream function's requests so a long session
 * converts each message once; the same objects go out each time, which lets json-body.ts reuse their
 * text. History messages are never changed in place: they are frozen once in a run's history
 * (kernel/conversation/freeze.ts), and eliding and compaction put copies in the list. A tool result's item depends on whether its call was a built-in one (`builtin`).
 */
export type ResponsesConvertMemo = WeakMap<Message, { items: InputItem[]; builtin?: boolean }>;

function messageItems(message: Message, builtinCalls: Set<string>): InputItem[] {
  if (message.role === "user") return [{ role: "user", content: message.content }];
  if (message.role === "assistant") return assistantItems(message, builtinCalls);
  if (builtinCalls.has(message.toolCallId)) {
    return [
      {
        type: "apply_patch_call_output",
        call_id: message.toolCallId,
        status: message.isError ? "failed" : "completed",
        output: message.content,
      },
    ];
  }
  return [{ type: "function_call_output", call_id: message.toolCallId, output: functionOutput(message) }];
}

/** The history as Responses input items, every output item sent back as it came. */
export function inputItems(messages: Message[], memo?: ResponsesConvertMemo): InputItem[] {
  const items: InputItem[] = [];
  const builtinCalls = new Set<string>();
  for (const message of messages) {
    const builtin = message.role === "tool" ? builtinCalls.has(message.toolCallId) : undefined;
    const kept = memo?.get(message);
    if (kept && kept.builtin === builtin) {
      // A kept assistant message still names its built-in calls for the results after it.
      for (const item of kept.items) {
        if (item.type === "apply_patch_call") builtinCalls.add((item as { call_id: string }).call_id);
        items.push(item); // not push(...): spreading costs Bun 1.4 far more per element (anthropic-convert.ts)
      }
      continue;
    }
    const converted = messageItems(message, builtinCalls);
    memo?.set(message, builtin === undefined ? { items: converted } : { items: converted, builtin });
    for (const item of converted) items.push(item);
  }
  return items;
}

/** A key for requests sharing this agent's stable prefix: its system prompt and tool names. */
function derivedCacheKey(request: ModelRequest): string {
  const hash = createHash("sha256").update(request.system);
  for (const tool of request.tools) hash.update(`\0${tool.name}`);
  return `agent-${hash.digest("hex").slice(0, 32)}`;
}

/** OpenAI refuses a longer `prompt_cache_key` with 400 `string_above_max_length` ("Invalid
 * 'prompt_cache_key': string too long. Expected a string with maximum length 64, …":
 * theopenco/llmgateway#3110, vybestack/llxprt-code#2135, earendil-works/pi#4719). */
export const PROMPT_CACHE_KEY_MAX = 64;

/**
 * `key` when it fits; else a stable 64-character form: its first 31 characters (the session id, readable
 * in logs) and a hash of the whole key, so two agents of one session whose paths differ only at the end
 * still get different keys.
 */
export function boundedCacheKey(key: string): string {
  if (key.length <= PROMPT_CACHE_KEY_MAX) return key;
  const digest = createHash("sha256").update(key).digest("hex");
  const head = key.slice(0, 31);
  return `${head}~${digest.slice(0, PROMPT_CACHE_KEY_MAX - head.length - 1)}`;
}

/** What a Responses request may carry beyond the conversation, as the model and the account allow. */
export interface ResponsesFeatures {
  /** `include: ["reasoning.encrypted_content"]` (models that reason; see encryptedReasoningFor). */
  encryptedReasoning: boolean;
  /** `reasoning.summary: "auto"` (reasoning models, unless the organization may not have them). */
  reasoningSummary: boolean;
}

/**
 * The features a model gets unless the API refused them this session: encrypted reasoning for every model
 * except one the catalog knows does not reason (gpt-4o, gpt-4.1 and older answer 400 "Encrypted content is
 * not supported with this model.", pydantic/pydantic-ai#3326, microsoft/agent-framework#7577); summaries
 * for a catalog model that reasons (`Reasoning` is "gpt-5 and o-series models only" and `summary: auto`
 * gives "the most detailed summarizer the model supports": openai shared.d.ts, OpenAI's reasoning guide).
 */
export function responsesFeatures(modelId: string): ResponsesFeatures {
  return {
    encryptedReasoning: !knownNotToReason(modelId),
    reasoningSummary: supportsReasoningSummary(modelId),
  };
}

/** The streaming request body. */
export function buildResponsesRequest(
  request: ModelRequest,
  memo?: ResponsesConvertMemo,
  features: ResponsesFeatures = responsesFeatures(request.model.id),
): Params {
  const params: Params = {
    model: request.model.id,
    input: inputItems(request.messages, memo),
    stream: true,
    // Stateless: nothing is stored server-side, so reasoning travels as encrypted content.
    store: false,
  };
  if (features.encryptedReasoning) params.include = ["reasoning.encrypted_content"];
  if (request.system !== "") params.instructions = request.system;
  if (request.tools.length > 0) {
    // strict: false — our schemas have optional fields, which strict mode would make required.
    params.tools = request.tools.map((tool) => ({
      type: "function" as const,
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters as Record<string, unknown>,
      strict: false,
    }));
  }
  if (request.maxOutputTokens !== undefined) params.max_output_tokens = request.maxOutputTokens;
  // Structured outputs: `text.format` json_schema (responses.d.ts ResponseFormatTextJSONSchemaConfig;
  // platform.openai.com/docs/guides/structured-outputs), allowed alongside function tools.
  if (request.responseSchema) {
    params.text = { format: { type: "json_schema", ...openaiJsonSchema(request.responseSchema) } };
  }
  // prompt_cache_key: recommended from GPT-5.6 on for cache hit rates ("On GPT-5.6 models and later model
  // families, set the prompt_cache_key parameter and reuse the same key for requests that share long,
  // common prompt prefixes", learn.microsoft.com/azure/foundry/openai/how-to/prompt-caching; OpenAI's
  // prompt-caching guide); responses.d.ts ResponseCreateParamsBase.prompt_cache_key.
  params.prompt_cache_key = boundedCacheKey(request.cacheKey ?? derivedCacheKey(request));
  const requested = request.reasoningEffort;
  const effort = requested === undefined ? undefined : acceptedEffort(request.model.id, requested);
  const summary = features.reasoningSummary;
  if (effort !== undefined || summary) {
    params.reasoning = {};
    if (effort !== undefined) params.reasoning.effort = effort as OpenAI.ReasoningEffort;
    // Reasoning summaries stream only when asked for (shared.d.ts Reasoning.summary: "auto" picks the
    // most detailed summarizer the model supports); they are shown as progress, never as the answer.
    if (summary) params.reasoning.summary = "auto";
  }
  // Sampling parameters only without reasoning (deployment checklist).
  if (request.temperature !== undefined && effectiveEffort(request.model.id, requested) === "none") {
    params.temperature = request.temperature;
  }
  return params;
}

/**
 * Usage as billed: `input_tokens` includes the cached reads and the cache writes, so both are taken out
 * of the base-rate input; `output_tokens` includes the reasoning tokens.
 */
export function responsesUsage(raw: OpenAI.Responses.ResponseUsage | null | undefined): Usage {
  const usage = emptyUsage();
  if (!raw) return usage;
  const cached = raw.input_tokens_details?.cached_tokens ?? 0;
  const written = raw.input_tokens_details?.cache_write_tokens ?? 0;
  usage.inputTokens = Math.max(0, (raw.input_tokens ?? 0) - cached - written);
  usage.cacheReadTokens = cached;
  usage.cacheWriteTokens = written;
  usage.outputTokens = raw.output_tokens ?? 0;
  usage.reasoningTokens = raw.output_tokens_details?.reasoning_tokens ?? 0;
  return usage;
}

/**
 * We offer apply_patch as our own function tool, not the built-in `{"type": "apply_patch"}` tool
 * (developers.openai.com/api/docs/guides/tools-apply-patch): the built-in one emits one file operation per
 * `apply_patch_call` (a V4A diff per file, answered by `apply_patch_call_output`), so a multi-file change
 * becomes several calls and approvals and loses our all-or-nothing apply. Should such an item arrive
 * anyway (recorded-exchanges/openai-responses/gpt-5-1-apply-patch-tool), it becomes the same primitive call.
 *
 * A built-in `apply_patch_call` operation as the `*** Begin Patch` text our apply_patch primitive takes:
 * create_file diffs are `+` lines (an Add File body), update_file diffs are V4A hunks (an Update File
 * body), delete_file has no diff.
 */
export function operationPatch(operation: { type: string; path: string; diff?: string }): string {
  const diff = operation.diff ?? "";
  const body = diff === "" || diff.endsWith("\n") ? diff : `${diff}\n`;
  const head =
    operation.type === "create_file"
      ? `*** Add File: ${operation.path}\n`
      : operation.type === "delete_file"
        ? `*** Delete File: ${operation.path}\n`
        : `*** Update File: ${operation.path}\n`;
  return `*** Begin Patch\n${head}${operation.type === "delete_file" ? "" : body}*** End Patch`;
}
