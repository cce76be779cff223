/**
 * Normalized request -> OpenAI Chat Completions request, and finish_reason -> StopReason.
 * Also serves OpenAI-compatible servers (Ollama, LM Studio, vLLM, llama.cpp) through a base URL.
 */
import type OpenAI from "openai";
import type { Message, ToolResultMessage } from "../../kernel/conversation/messages.ts";
import type { ModelRequest, ReasoningEffort, StopReason } from "../../kernel/conversation/stream.ts";
import { roundEffort } from "./effort.ts";
import { openaiJsonSchema } from "./response-schema.ts";

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
/** An assistant turn with the field DeepSeek-style servers read back. */
type AssistantTurn = OpenAI.Chat.ChatCompletionAssistantMessageParam & { reasoning_content?: string };

/** How a request is converted for this endpoint. */
export interface ChatConvertOptions {
  /**
   * Send each assistant turn's reasoning back as `reasoning_content` (an empty string when it had none).
   * DeepSeek's thinking mode answers 400 "The reasoning_content in the thinking mode must be passed back
   * to the API." when a turn with tool calls lacks it (api-docs.deepseek.com/guides/thinking_mode#tool-calls);
   * on other turns the field is ignored.
   */
  sendReasoningContent: boolean;
  /**
   * The reasoning values the server accepts, when known (Ollama's: OLLAMA_EFFORTS); a requested effort is
   * mapped onto them (effort.ts roundEffort). Absent: sent as the user set it.
   */
  efforts?: readonly ReasoningEffort[];
  /** Send no `reasoning_effort` (the server said this model cannot think). */
  noEffort?: boolean;
}

/**
 * The `reasoning_effort` values every Ollama since 0.12.4 accepts: "high", "medium", "low" or "none"
 * (github.com/ollama/ollama openai/openai.go `FromChatRequest`, commit 1b91d4dda; anything else is 400
 * `invalid reasoning value: '<v>' (must be "high", "medium", "low", or "none")` until 0.21.3 added "max"
 * and 0.32.11 clamped "minimal"/"xhigh"/"ultra"). `minimal` goes as `low`; `xhigh` and `max` as `high`.
 */
export const OLLAMA_EFFORTS: readonly ReasoningEffort[] = ["none", "low", "medium", "high"];

/**
 * Each history message's converted form, kept between one stream function's requests so a long session
 * converts each message once; the same object goes out each time, which lets json-body.ts reuse its
 * text. History messages are never changed in place: they are frozen once in a run's history
 * (kernel/conversation/freeze.ts), and eliding and compaction put copies in the list.
 */
export type ChatConvertMemo = WeakMap<Message, ChatMessage | null>;

function convertMessage(message: Message, options: ChatConvertOptions): ChatMessage | null {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant": {
      let text = "";
      let reasoning = "";
      const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
      for (const part of message.parts) {
        if (part.type === "text") text += part.text;
        else if (part.type === "reasoning") {
          if (part.provider === "openai") reasoning += part.text;
        } else if (part.type === "tool_call") {
          calls.push({
            id: part.id,
            type: "function",
            function: { name: part.name, arguments: part.rawArguments ?? JSON.stringify(part.arguments) },
          });
        }
      }
      if (text === "" && calls.length === 0) return null;
      const out: AssistantTurn = { role: "assistant", content: text || null };
      // Reasoning goes back only to servers that require it (see ChatConvertOptions).
      if (options.sendReasoningContent) out.reasoning_content = reasoning;
      if (calls.length > 0) out.tool_calls = calls;
      return out;
    }
  }
}

/** A tool result's images as user content parts, introduced by which call returned them. */
function imageParts(message: ToolResultMessage): OpenAI.Chat.ChatCompletionContentPart[] {
  const count = message.images?.length ?? 0;
  return [
    {
      type: "text",
      text: `The ${count === 1 ? "image" : `${count} images`} returned by tool call ${message.toolCallId} (${message.toolName}):`,
    },
    ...(message.images ?? []).map(
      (image): OpenAI.Chat.ChatCompletionContentPart => ({
        type: "image_url",
        image_url: { url: `data:${image.mediaType};base64,${image.data}` },
      }),
    ),
  ];
}

/** The `reasoning_effort` to send for `requested` under `options`, or undefined for none. */
export function chatEffort(
  requested: ReasoningEffort | undefined,
  options: ChatConvertOptions,
): ReasoningEffort | undefined {
  if (requested === undefined || options.noEffort) return undefined;
  return options.efforts ? roundEffort(requested, options.efforts) : requested;
}

/** The streaming request body. */
export function buildRequest(
  request: ModelRequest,
  options: ChatConvertOptions,
  memo?: ChatConvertMemo,
): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
  const messages: ChatMessage[] = [];
  if (request.system !== "") messages.push({ role: "system", content: request.system });
  // A tool message takes text only (ChatCompletionToolMessageParam.content: string or text parts; the API
  // answers an image there with 400 "Image URLs are only allowed for messages with role 'user', but this
  // message with role 'tool' contains an image URL.", OpenHands/OpenHands#7700). Images of a run of tool
  // results go in one user message right after the run (the workaround of OpenHands/OpenHands#10200 and
  // netease-lcap/wave-agent#1368: tool messages must follow their assistant turn unbroken).
  let images: OpenAI.Chat.ChatCompletionContentPart[] = [];
  const flushImages = () => {
    if (images.length > 0) messages.push({ role: "user", content: images });
    images = [];
  };
  for (const message of request.messages) {
    if (message.role !== "tool") flushImages();
    let converted = memo?.get(message);
    if (converted === undefined) {
      converted = convertMessage(message, options);
      memo?.set(message, converted);
    }
    if (converted) messages.push(converted);
    if (message.role === "tool" && message.images?.length) images.push(...imageParts(message));
  }
  flushImages();
  const params: OpenAI.Chat.ChatCompletionCreateParamsStreaming = {
    model: request.model.id,
    messages,
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      type: "function" as const,
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  // Only OpenAI-compatible servers come here (official OpenAI models are called over Responses), and
  // they read `max_tokens`: docs.ollama.com/api/openai-compatibility lists `max_tokens` among the
  // supported request fields and not `max_completion_tokens`, the official API's newer name.
  if (request.maxOutputTokens !== undefined) params.max_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) params.temperature = request.temperature;
  // A reasoning effort goes only when the user set one (we cannot know what a local model accepts): mapped
  // onto the server's values where we know them (Ollama), else as given (vLLM, LM Studio); a refusal then
  // names the setting (adapter.ts effortHint).
  const effort = chatEffort(request.reasoningEffort, options);
  if (effort !== undefined) params.reasoning_effort = effort as OpenAI.ReasoningEffort;
  // Structured outputs (platform.openai.com/docs/guides/structured-outputs; completions.d.ts
  // ResponseFormatJSONSchema), also served by compatible servers (Ollama, vLLM, LM Studio).
  if (request.responseSchema) {
    params.response_format = { type: "json_schema", json_schema: openaiJsonSchema(request.responseSchema) };
  }
  return params;
}

/** Maps a Chat Completions finish_reason to the normalized StopReason. */
export function mapStopReason(raw: string | null): StopReason {
  switch (raw) {
    case null:
      return "none";
    case "stop":
      return "end";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "length":
      return "max_tokens";
    case "content_filter":
      return "refusal";
    default:
      return "other";
  }
}
