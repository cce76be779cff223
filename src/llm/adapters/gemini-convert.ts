/**
 * Normalized request -> Gemini generateContent contents/config, finishReason -> StopReason, and the
 * streamed function-call arguments form (Vertex `partialArgs` / `willContinue`).
 */
import type { Content, Part, Tool } from "@google/genai";
import type { Message } from "../../kernel/conversation/messages.ts";
import type { StopReason } from "../../kernel/conversation/stream.ts";
import type { ToolDefinition } from "../../kernel/conversation/tools.ts";

/** Ids we invent for calls Gemini sent without one; they are not sent back. */
export const GENERATED_ID_PREFIX = "gemini-call-";

/**
 * Whether a model takes images inside a function response (`functionResponse.parts`): Gemini 3 and later
 * do ("multimodal function responses", ai.google.dev/gemini-api/docs/function-calling#multimodal); Gemini
 * 2.x answers 400 "Unable to submit request because `function_response.parts` is not supported for this
 * model." (google-gemini/gemini-cli#19436), and images as sibling parts break the rule of one response
 * part per call (gemini-cli#16135). There the images are left out with a note in the text, as Gemini CLI
 * does (gemini-cli#17068).
 */
export function takesFunctionResponseImages(modelId: string): boolean {
  const major = /^gemini-(\d+)/.exec(modelId)?.[1];
  return major === undefined || Number(major) >= 3;
}

function partsOf(message: Message, images: boolean): { role: "user" | "model"; parts: Part[] } {
  switch (message.role) {
    case "user":
      return { role: "user", parts: message.content === "" ? [] : [{ text: message.content }] };
    case "tool": {
      const left = !images && message.images?.length ? message.images.length : 0;
      const text =
        left > 0
          ? `${message.content}\n[${left} image(s) left out: this model takes no images in a function response]`
          : message.content;
      const response = message.isError ? { error: text } : { output: text };
      const id = message.toolCallId.startsWith(GENERATED_ID_PREFIX) ? {} : { id: message.toolCallId };
      // Images go in the response's own `parts` as inline data (FunctionResponse.parts:
      // FunctionResponsePart.inlineData, @google/genai genai.d.ts; "multimodal function responses").
      const media =
        images && message.images?.length
          ? { parts: message.images.map((i) => ({ inlineData: { mimeType: i.mediaType, data: i.data } })) }
          : {};
      return {
        role: "user",
        parts: [{ functionResponse: { ...id, name: message.toolName, response, ...media } }],
      };
    }
    case "assistant": {
      const parts: Part[] = [];
      for (const part of message.parts) {
        if (part.type === "text") {
          if (part.text !== "" || part.signature) {
            parts.push(
              part.signature ? { text: part.text, thoughtSignature: part.signature } : { text: part.text },
            );
          }
        } else if (part.type === "tool_call") {
          const id = part.id.startsWith(GENERATED_ID_PREFIX) ? {} : { id: part.id };
          const call: Part = { functionCall: { ...id, name: part.name, args: part.arguments } };
          // The thought signature goes back unchanged with its function call.
          if (part.signature) call.thoughtSignature = part.signature;
          parts.push(call);
        } else if (part.provider === "gemini" && part.signature) {
          parts.push({ text: part.text, thought: true, thoughtSignature: part.signature });
        }
      }
      return { role: "model", parts };
    }
  }
}

/** Converts messages, merging consecutive same-role turns (tool results become one user turn). */
export function convertContents(messages: Message[], modelId = ""): Content[] {
  const images = takesFunctionResponseImages(modelId);
  const out: Content[] = [];
  for (const message of messages) {
    const { role, parts } = partsOf(message, images);
    if (parts.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else out.push({ role, parts });
  }
  return out;
}

export function convertTools(tools: ToolDefinition[]): Tool[] {
  if (tools.length === 0) return [];
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parametersJsonSchema: tool.parameters,
      })),
    },
  ];
}

/**
 * Maps Gemini's finishReason to the normalized StopReason (tool calls are decided by the caller). Values
 * from the FinishReason enum of @google/genai (node_modules/@google/genai/dist/genai.d.ts):
 * `CONTINUATION` stops at the per-request limit with generation not complete (continue the turn);
 * `MALFORMED_FUNCTION_CALL` / `UNEXPECTED_TOOL_CALL` / `MALFORMED_RESPONSE` are output the API could
 * not use (retry the turn); the safety and recitation filters are refusals.
 */
export function mapStopReason(raw: string | null, hasToolCalls: boolean): StopReason {
  if (raw === null) return hasToolCalls ? "tool_calls" : "none";
  switch (raw) {
    case "STOP":
      return hasToolCalls ? "tool_calls" : "end";
    case "MAX_TOKENS":
      return "max_tokens";
    // FinishReason in node_modules/@google/genai/dist/genai.d.ts. With the SDK's automaticContinuation
    // off, CONTINUATION arrives here and the loop re-sends the partial turn (with its continuation
    // token, see gemini-convert's history), as for a pause.
    case "CONTINUATION":
      return "pause";
    case "MALFORMED_FUNCTION_CALL":
    case "UNEXPECTED_TOOL_CALL":
    case "MALFORMED_RESPONSE":
      return "malformed_call";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
    // Added in @google/genai 3.3's FinishReason: "blocked by Model Armor" (Vertex AI), "filtered by an
    // escalation rule", "the user account is limited or disabled due to Prohibited Use Policy violations".
    case "MODEL_ARMOR":
    case "ESCALATION":
    case "PUP_LIMITED_DISABLED":
    // "Request has at least one thought signature missing" (3.3): the API refused this history; the same
    // request would be refused again, so it ends the run as a refusal rather than passing as an answer.
    case "MISSING_THOUGHT_SIGNATURE":
      return "refusal";
    default:
      return "other";
  }
}

/** One entry of a streamed function call's `partialArgs`. */
export interface PartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
  willContinue?: boolean;
}

/** Splits `$.a.b[0]["c d"]` into keys and indexes. */
function pathTokens(jsonPath: string): (string | number)[] {
  const tokens: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\[["']([^"']*)["']\]/g;
  for (const match of jsonPath.replace(/^\$/, "").matchAll(re)) {
    if (match[1] !== undefined) tokens.push(match[1]);
    else if (match[2] !== undefined) tokens.push(Number(match[2]));
    else if (match[3] !== undefined) tokens.push(match[3]);
  }
  return tokens;
}

/**
 * Applies streamed `partialArgs` to `target`: each entry sets the value at its jsonPath, and a string
 * piece is appended when the previous piece for that path had `willContinue`. `continuing` keeps that
 * state between chunks.
 */
export function applyPartialArgs(
  target: Record<string, unknown>,
  entries: PartialArg[],
  continuing: Map<string, boolean>,
): void {
  for (const entry of entries) {
    const path = entry.jsonPath ?? "$";
    const tokens = pathTokens(path);
    if (tokens.length === 0) continue;
    let node: Record<string | number, unknown> = target;
    for (let i = 0; i < tokens.length - 1; i++) {
      const token = tokens[i] as string | number;
      const nextIsIndex = typeof tokens[i + 1] === "number";
      if (node[token] === undefined || node[token] === null || typeof node[token] !== "object") {
        node[token] = nextIsIndex ? [] : {};
      }
      node = node[token] as Record<string | number, unknown>;
    }
    const leaf = tokens[tokens.length - 1] as string | number;
    if (entry.stringValue !== undefined) {
      const previous = node[leaf];
      node[leaf] =
        continuing.get(path) && typeof previous === "string"
          ? previous + entry.stringValue
          : entry.stringValue;
    } else if (entry.numberValue !== undefined) node[leaf] = entry.numberValue;
    else if (entry.boolValue !== undefined) node[leaf] = entry.boolValue;
    else if ("nullValue" in entry) node[leaf] = null;
    continuing.set(path, entry.willContinue === true);
  }
}
