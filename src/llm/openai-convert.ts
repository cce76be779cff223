/**
 * Normalized request -> OpenAI Chat Completions request, and finish_reason -> StopReason.
 * Also serves OpenAI-compatible servers (Ollama, LM Studio, vLLM, llama.cpp) through a base URL.
 */
import type OpenAI from "openai";
import type { Message } from "../kernel/messages.ts";
import type { ModelRequest, StopReason } from "../kernel/stream.ts";
import { openaiJsonSchema } from "./response-schema.ts";

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;

function convertMessage(message: Message): ChatMessage | null {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant": {
      let text = "";
      const calls: OpenAI.Chat.ChatCompletionMessageFunctionToolCall[] = [];
      for (const part of message.parts) {
        if (part.type === "text") text += part.text;
        else if (part.type === "tool_call") {
          calls.push({
            id: part.id,
            type: "function",
            function: { name: part.name, arguments: part.rawArguments ?? JSON.stringify(part.arguments) },
          });
        }
        // Reasoning is not sent back over Chat Completions.
      }
      if (text === "" && calls.length === 0) return null;
      const out: OpenAI.Chat.ChatCompletionAssistantMessageParam = {
        role: "assistant",
        content: text || null,
      };
      if (calls.length > 0) out.tool_calls = calls;
      return out;
    }
  }
}

/** The streaming request body. `official` selects `max_completion_tokens` over the older `max_tokens`. */
export function buildRequest(
  request: ModelRequest,
  official: boolean,
): OpenAI.Chat.ChatCompletionCreateParamsStreaming {
  const messages: ChatMessage[] = [];
  if (request.system !== "") messages.push({ role: "system", content: request.system });
  for (const message of request.messages) {
    const converted = convertMessage(message);
    if (converted) messages.push(converted);
  }
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
  if (request.maxOutputTokens !== undefined) {
    if (official) params.max_completion_tokens = request.maxOutputTokens;
    else params.max_tokens = request.maxOutputTokens;
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
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
