/**
 * Normalized conversation model shared by every provider adapter and the agent loop.
 * Adapters convert to and from their wire formats; nothing above src/llm sees a wire format.
 */

/** A tool call the model made. `arguments` is the parsed JSON object; when the model's argument
 * text was not valid JSON, `arguments` is `{}`, `rawArguments` holds the text and `parseError` says why,
 * so the loop can try to repair it. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  rawArguments?: string;
  parseError?: string;
  /** Opaque provider data that must be sent back with this call (Gemini thought signature). */
  signature?: string;
  /** OpenAI Responses: the output item's own id (`fc_…`, or `apc_…` for a built-in apply_patch call),
   * sent back with the item; `id` holds the `call_id` that tool results refer to. */
  itemId?: string;
  /** OpenAI Responses: set when the call came as a built-in `apply_patch_call` item (the operation is
   * kept so the item goes back unchanged); absent for function calls. */
  applyPatchOperation?: { type: string; path: string; diff?: string };
}

/** One part of an assistant message, kept in the order the model produced it. */
export type AssistantPart =
  | {
      type: "text";
      text: string;
      /** Gemini thought signature on a text part. */
      signature?: string;
      /** OpenAI Responses: the message item id (`msg_…`) this text came in. */
      itemId?: string;
      /** OpenAI Responses: the message's `phase` (intermediate `commentary` or the `final_answer`), sent
       * back unchanged on later turns. */
      phase?: "commentary" | "final_answer";
    }
  | {
      type: "reasoning";
      /** Reasoning text: never part of the answer. Empty for redacted blocks. */
      text: string;
      /** Opaque data the provider needs back on later turns (Anthropic thinking signature, redacted data,
       * OpenAI reasoning item `encrypted_content` from `response.output_item.done`). */
      signature?: string;
      /** OpenAI Responses: the reasoning item id (`rs_…`). */
      itemId?: string;
      redacted?: boolean;
      /** Which provider produced it: reasoning is only replayed to the same provider kind. */
      provider: ProviderKind;
    }
  | ({ type: "tool_call" } & ToolCall);

export interface UserMessage {
  role: "user";
  content: string;
}

export interface AssistantMessage {
  role: "assistant";
  parts: AssistantPart[];
  /**
   * Gemini: the opaque token of a response that stopped with `CONTINUATION` (stop reason `pause`). A
   * request whose history ends with this message continues that response: the adapter sends the request
   * that produced it again, with this token (GenerateContentConfig.continuationToken).
   */
  continuationToken?: string;
}

/**
 * An image a tool returned, for the model: base64 data of one of IMAGE_MEDIA_TYPES. Each adapter puts it
 * where its protocol takes images in a tool result (or, where none does, in a user message right after).
 */
export interface ImagePart {
  type: "image";
  mediaType: ImageMediaType;
  /** Base64, without a `data:` prefix. */
  data: string;
}

/** The image types every provider takes: the Anthropic SDK's Base64ImageSource.media_type union
 * (@anthropic-ai/sdk resources/beta/messages BetaBase64ImageSource); OpenAI and Gemini take them too. */
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];

export function isImageMediaType(type: string): type is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(type);
}

export interface ToolResultMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  /** What the model sees (already truncated and redacted). */
  content: string;
  isError: boolean;
  /** Images the tool returned, after the text (already within the output limits). */
  images?: ImagePart[];
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export type ProviderKind = "anthropic" | "openai" | "gemini";

/** The visible answer text of an assistant message (reasoning excluded). */
export function assistantText(message: AssistantMessage): string {
  let text = "";
  for (const part of message.parts) if (part.type === "text") text += part.text;
  return text;
}

export function assistantToolCalls(message: AssistantMessage): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const part of message.parts) {
    if (part.type === "tool_call") {
      const { type: _type, ...call } = part;
      calls.push(call);
    }
  }
  return calls;
}
