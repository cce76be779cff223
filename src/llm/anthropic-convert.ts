/**
 * Normalized request -> Anthropic Messages request, and Anthropic stop reasons -> StopReason.
 * The stable prefix (system, tools) and the last message block carry `cache_control` for prompt caching.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { transformJSONSchema } from "@anthropic-ai/sdk/lib/transform-json-schema";
import type { Message } from "../kernel/messages.ts";
import type { ModelRequest, ResponseSchema, StopReason } from "../kernel/stream.ts";
import type { ToolDefinition } from "../kernel/tools.ts";

type Block = Anthropic.ContentBlockParam;
type Role = "user" | "assistant";

const EPHEMERAL = { type: "ephemeral" } as const;
/** Used when the request sets no output limit (the catalog normally sets one). */
export const DEFAULT_MAX_TOKENS = 8192;

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
            content: message.content,
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

/** Converts messages, merging consecutive same-role turns (tool results become one user turn). */
export function convertMessages(messages: Message[]): Anthropic.MessageParam[] {
  const out: { role: Role; content: Block[] }[] = [];
  for (const message of messages) {
    const { role, blocks } = blocksOf(message);
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) {
      // Tool results must come first in a user turn.
      if (message.role === "tool") {
        const firstOther = last.content.findIndex((b) => b.type !== "tool_result");
        if (firstOther >= 0) last.content.splice(firstOther, 0, ...blocks);
        else last.content.push(...blocks);
      } else last.content.push(...blocks);
    } else out.push({ role, content: blocks });
  }
  const lastBlock = out[out.length - 1]?.content.at(-1);
  if (lastBlock && lastBlock.type !== "thinking" && lastBlock.type !== "redacted_thinking") {
    Object.assign(lastBlock, { cache_control: EPHEMERAL });
  }
  return out;
}

/** Tool definitions; the last one marks the end of the cached prefix. */
export function convertTools(tools: ToolDefinition[]): Anthropic.ToolUnion[] {
  return tools.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { ...tool.parameters, type: "object" as const },
    ...(i === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}

/** The streaming request body. */
export function buildRequest(request: ModelRequest): Anthropic.MessageCreateParamsStreaming {
  const params: Anthropic.MessageCreateParamsStreaming = {
    model: request.model.id,
    max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    messages: convertMessages(request.messages),
    stream: true,
  };
  if (request.system !== "")
    params.system = [{ type: "text", text: request.system, cache_control: EPHEMERAL }];
  if (request.tools.length > 0) params.tools = convertTools(request.tools);
  const format = request.responseSchema ? outputFormat(request.responseSchema) : undefined;
  if (format) params.output_config = { format };
  // `temperature` is not sent: this SDK version's request type no longer carries it.
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
 * re-asked once (src/agents/output-schema.ts).
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
    // platform.claude.com/docs/en/build-with-claude/handling-stop-reasons
    case "pause_turn":
      return "pause";
    case "model_context_window_exceeded":
      return "context_window";
    case "refusal":
      return "refusal";
    default:
      return "other";
  }
}
