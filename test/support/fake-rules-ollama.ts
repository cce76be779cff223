/**
 * The rules of a local Ollama's OpenAI-compatible Chat Completions endpoint (`/v1/chat/completions`), which
 * the fake server enforces instead of OpenAI's when `settings.ollama` is set (see fake-rules.ts).
 *
 * Sources, github.com/ollama/ollama:
 * - openai/openai.go `FromChatRequest` from commit 1b91d4dda (2025-10-08, v0.12.4) accepts
 *   `reasoning_effort` "high", "medium", "low" or "none" and answers anything else with
 *   `invalid reasoning value: '<v>' (must be "high", "medium", "low", or "none")`; v0.21.3 (c2ebb4d57)
 *   adds "max"; v0.32.11 (01d04d50f, 2026-08-13) clamps "minimal", "xhigh" and "ultra" instead. The fake
 *   answers as the strictest of these releases, which users still run.
 * - middleware/openai.go `ChatMiddleware` turns that error into HTTP 400 with `openai.NewError`:
 *   `{"error": {"message", "type": "invalid_request_error", "param": null, "code": null}}`.
 * - server/routes.go `ChatHandler`: a thinking value on a model without the thinking capability is
 *   400 `"<model>" does not support thinking` (`none` maps to `think: false`, which every model takes),
 *   passed through `BaseWriter.writeError` into the same error shape.
 */
import type { FakeRule, Refusal, RuleRequest } from "./fake-rules.ts";

/** The values Ollama 0.12.4 .. 0.21.2 accepts. */
const OLLAMA_EFFORTS = ["high", "medium", "low", "none"];

function refuse(message: string): Refusal {
  return {
    status: 400,
    body: { error: { message, type: "invalid_request_error", param: null, code: null } },
  };
}

function effortOf(request: RuleRequest): string | undefined {
  const body = request.body as { reasoning_effort?: unknown; reasoning?: { effort?: unknown } } | null;
  const effort = body?.reasoning?.effort ?? body?.reasoning_effort;
  return typeof effort === "string" && effort !== "" ? effort : undefined;
}

/** Rule: a reasoning value outside Ollama's set. */
const invalidReasoningValue: FakeRule = (request) => {
  const effort = effortOf(request);
  if (effort === undefined || OLLAMA_EFFORTS.includes(effort)) return null;
  return refuse(`invalid reasoning value: '${effort}' (must be "high", "medium", "low", or "none")`);
};

/** Rule: thinking asked of a model that cannot think. */
const thinkingNeedsCapability: FakeRule = (request) => {
  const effort = effortOf(request);
  if (effort === undefined || effort === "none") return null;
  if (request.settings?.ollama?.thinkingModels.includes(request.model)) return null;
  return refuse(`"${request.model}" does not support thinking`);
};

export const ollamaRules: FakeRule[] = [invalidReasoningValue, thinkingNeedsCapability];
