/**
 * The fake server refuses a request whose input is longer than the model accepts, as each real API does,
 * with its status and error text. The limit is the catalog's (the model's maximum input, else its window:
 * GPT-6.x 922,000 of 1,050,000); the count is the fake's own approximation of a tokenizer, 4 characters of
 * the request body a token. Models the catalog does not know (a compatible server's) are never refused.
 *
 * Texts of the real APIs:
 * - Anthropic 400 `invalid_request_error`, "prompt is too long: 208656 tokens > 200000 maximum"
 *   (github.com/sojohnnysaid/project-guide/issues/2, github.com/anthropics/claude-code/issues/59696)
 * - OpenAI Responses 400 `code: "context_length_exceeded"`, `param: "input"`, "Your input exceeds the context
 *   window of this model. Please adjust your input and try again." (github.com/dyad-sh/dyad/issues/1672)
 * - OpenAI Chat Completions 400 `code: "context_length_exceeded"`, `param: "messages"`, "This model's maximum
 *   context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length
 *   of the messages." (github.com/crewAIInc/crewAI-examples/issues/121)
 * - Gemini 400 INVALID_ARGUMENT, "The input token count (1200293) exceeds the maximum number of tokens
 *   allowed (1048576)." (github.com/google-gemini/gemini-cli/issues/6678)
 */
import { inputLimit } from "../../src/kernel/index.ts";
import { modelInfo } from "../../src/llm/catalog.ts";
import type { FakeRule, Refusal, RuleRequest } from "./fake-rules.ts";

/** The fake's token count of a request: 4 characters of its body a token. */
export function fakeInputTokens(request: Pick<RuleRequest, "raw" | "body">): number {
  return Math.ceil((request.raw ?? JSON.stringify(request.body)).length / 4);
}

export const inputLimitRule: FakeRule = (request) => {
  const info = modelInfo(request.model);
  if (!info.known) return null;
  const limit = inputLimit(info);
  const tokens = fakeInputTokens(request);
  return tokens > limit ? refusal(request, tokens, limit) : null;
};

function refusal(request: RuleRequest, tokens: number, limit: number): Refusal {
  switch (request.protocol) {
    case "anthropic":
      return {
        status: 400,
        body: {
          type: "error",
          error: {
            type: "invalid_request_error",
            message: `prompt is too long: ${tokens} tokens > ${limit} maximum`,
          },
        },
      };
    case "gemini":
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message: `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${limit}).`,
            status: "INVALID_ARGUMENT",
          },
        },
      };
    case "openai-responses":
      return {
        status: 400,
        body: {
          error: {
            message:
              "Your input exceeds the context window of this model. Please adjust your input and try again.",
            type: "invalid_request_error",
            param: "input",
            code: "context_length_exceeded",
          },
        },
      };
    default:
      return {
        status: 400,
        body: {
          error: {
            message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
            type: "invalid_request_error",
            param: "messages",
            code: "context_length_exceeded",
          },
        },
      };
  }
}
