/**
 * What the real provider APIs refuse, enforced by the fake server so that a request that passes here is
 * one the real API accepts. Each protocol's rules live in their own module (fake-rules-<protocol>.ts);
 * every rule cites the documentation or public report it reproduces, and answers with the real status
 * and error text.
 *
 * A refused request does not consume a scripted turn: the turn stays queued for the next request (so a
 * fallback to another candidate receives it).
 */
import type { FakeProtocol } from "./fake-llm-frames.ts";
import { anthropicRules } from "./fake-rules-anthropic.ts";
import { geminiRules } from "./fake-rules-gemini.ts";
import { inputLimitRule } from "./fake-rules-input-limit.ts";
import { ollamaRules } from "./fake-rules-ollama.ts";
import { openaiRules } from "./fake-rules-openai.ts";

/**
 * Switches of the fake server that stand for facts of the account or the server behind the endpoint, set
 * by a test on `server.settings`.
 */
export interface FakeServerSettings {
  /**
   * The Chat Completions endpoint answers as a local Ollama does (fake-rules-ollama.ts): its reasoning
   * values, and thinking only for the models listed.
   */
  ollama?: { thinkingModels: string[] };
  /** The OpenAI organization is not verified, so reasoning summaries are refused (fake-rules-openai.ts). */
  unverifiedOrganization?: boolean;
}

/** A request as a rule sees it. */
export interface RuleRequest {
  protocol: FakeProtocol;
  path: string;
  /** The parsed JSON body (null when it was not JSON). */
  body: unknown;
  /** The body as sent (JSON.parse accepts what some APIs refuse, such as a lone surrogate escape). */
  raw?: string;
  model: string;
  /** The server's switches (none set: the API as an ordinary verified account sees it). */
  settings?: FakeServerSettings;
}

/** The refusal a rule answers with: the real status and the real error body. */
export interface Refusal {
  status: number;
  body: unknown;
}

/** A rule returns a refusal, or null when the request is fine by it. */
export type FakeRule = (request: RuleRequest) => Refusal | null;

// Every protocol also refuses input longer than the model accepts (fake-rules-input-limit.ts).
const RULES: Record<string, FakeRule[]> = {
  anthropic: [...anthropicRules, inputLimitRule],
  openai: [...openaiRules, inputLimitRule],
  "openai-responses": [...openaiRules, inputLimitRule],
  gemini: [...geminiRules, inputLimitRule],
};

/** The first refusal any rule of the request's protocol gives, or null. */
export function checkRules(request: RuleRequest): Refusal | null {
  const rules =
    request.protocol === "openai" && request.settings?.ollama ? ollamaRules : RULES[request.protocol];
  for (const rule of rules ?? []) {
    const refusal = rule(request);
    if (refusal) return refusal;
  }
  return null;
}
