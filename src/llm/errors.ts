/**
 * Classifies provider failures (HTTP statuses, SDK errors, connection errors) into ProviderError values
 * whose messages name provider, model and status, never a key.
 */

import type { ProviderKind } from "../kernel/conversation/messages.ts";
import type { ModelRequest } from "../kernel/conversation/stream.ts";
import type { ProviderError, ProviderErrorKind } from "../kernel/errors.ts";
import { Redactor } from "../kernel/text/redact.ts";

/** Who failed: used in every message and for redacting the key. */
export interface ErrorContext {
  provider: ProviderKind;
  /** Provider instance name shown to people ("anthropic", "ollama"). */
  providerName: string;
  model: string;
  /** Redacted from every message. */
  apiKey?: string;
}

/** Facts about an HTTP failure, whatever SDK reported it. */
export interface HttpFailure {
  status?: number;
  headers?: Headers | Record<string, string | null | undefined>;
  /** Parsed JSON body or raw text. */
  body?: unknown;
}

const KEY_VARS: Record<ProviderKind, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  gemini: "GEMINI_API_KEY",
};

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
]);

function header(headers: HttpFailure["headers"], name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === "string") return value;
  }
  return undefined;
}

/** Gemini puts the delay in the body: a `google.rpc.RetryInfo` detail's `retryDelay` such as "30s" or "1.5s". */
function bodyRetryDelayMs(body: unknown): number | undefined {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const delay = (detail as { retryDelay?: unknown } | null)?.retryDelay;
    if (typeof delay === "string") {
      const match = /^(\d+(?:\.\d+)?)s$/.exec(delay.trim());
      if (match?.[1]) return Math.round(Number(match[1]) * 1000);
    }
  }
  return undefined;
}

/** The server-requested delay from `retry-after-ms`, `retry-after` (seconds or HTTP date) or the body. */
export function parseRetryAfter(failure: HttpFailure, now = Date.now()): number | undefined {
  const ms = header(failure.headers, "retry-after-ms");
  if (ms !== undefined && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = header(failure.headers, "retry-after");
  if (value !== undefined && value.trim() !== "") {
    const seconds = Number(value);
    if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return bodyRetryDelayMs(failure.body);
}

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return "";
  return typeof body === "string" ? body : JSON.stringify(body);
}

/** The provider's own message from an error body, when it has one. */
function apiMessage(body: unknown): string {
  if (typeof body === "string") {
    try {
      return apiMessage(JSON.parse(body));
    } catch {
      return body;
    }
  }
  // Anthropic and Gemini wrap the facts in `error`; the OpenAI SDK hands over the inner object.
  const outer = body as { error?: unknown; message?: unknown } | null | undefined;
  const inner = outer?.error;
  const message = (inner as { message?: unknown } | null | undefined)?.message;
  if (typeof message === "string") return message;
  if (typeof inner === "string") return inner;
  return typeof outer?.message === "string" ? outer.message : "";
}

/**
 * The quota ids of a Gemini 429's `google.rpc.QuotaFailure` details, or undefined when it has none
 * (ai.google.dev/gemini-api/docs/rate-limits; bodies as reported in github.com/google-gemini/gemini-cli
 * issues/8437: `quotaId` such as `GenerateRequestsPerMinutePerProjectPerModel-FreeTier` or
 * `GenerateRequestsPerDayPerProjectPerModel-FreeTier`, next to a `google.rpc.RetryInfo` `retryDelay`).
 */
function quotaIds(body: unknown): string[] | undefined {
  const details = (body as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  let ids: string[] | undefined;
  for (const detail of details) {
    const d = detail as { "@type"?: unknown; violations?: unknown } | null;
    if (typeof d?.["@type"] !== "string" || !d["@type"].endsWith("google.rpc.QuotaFailure")) continue;
    ids ??= [];
    for (const v of Array.isArray(d.violations) ? d.violations : []) {
      const id = (v as { quotaId?: unknown } | null)?.quotaId;
      if (typeof id === "string") ids.push(id);
    }
  }
  return ids;
}

/**
 * A 400/404 body saying this model cannot serve this request: the next candidate of the tier may.
 * Texts of the real APIs:
 * - OpenAI 404 `code: "model_not_found"`, "The model `x` does not exist or you do not have access to it."
 *   (github.com/openai/openai-agents-python/issues/458)
 * - OpenAI 400 `code: "unsupported_parameter"` / `"unsupported_value"`, "Unsupported parameter: 'temperature'
 *   is not supported with this model." (github.com/appatalks/eva-agent/issues/83)
 * - OpenAI 400 "Function tools with reasoning_effort are not supported for gpt-6-astra in /v1/chat/completions.
 *   To use function tools, use /v1/responses or set reasoning_effort to 'none'." (issue 7 report)
 * - Anthropic 404 `not_found_error`, "model: claude-3-5-sonnet-20241022" (the only thing /v1/messages can
 *   not find is the model; github.com/mattermost/mattermost-plugin-agents/issues/257)
 * - Gemini 404 NOT_FOUND, "models/gemini-pro is not found for API version v1beta, or is not supported for
 *   generateContent. Call ListModels ..." (github.com/continuedev/continue/issues/9939)
 */
const MODEL_UNSUPPORTED =
  /model_not_found|does not exist or you do not have access|unsupported_parameter|unsupported_value|Unsupported parameter|(?:is|are) not supported (?:with|for|by|on)\b|models\/\S+ is not found/i;

/**
 * A 400 saying the request's input is longer than the model accepts (the loop compacts and retries once).
 * Texts of the real APIs:
 * - OpenAI Responses `code: "context_length_exceeded"`, "Your input exceeds the context window of this
 *   model. Please adjust your input and try again." (github.com/dyad-sh/dyad/issues/1672, also as an
 *   `error` event inside a stream); Chat Completions the same code with "This model's maximum context
 *   length is 8192 tokens. However, your messages resulted in 8227 tokens. ..."
 *   (github.com/crewAIInc/crewAI-examples/issues/121)
 * - Anthropic `invalid_request_error`, "prompt is too long: 208656 tokens > 200000 maximum"
 *   (github.com/sojohnnysaid/project-guide/issues/2, github.com/anthropics/claude-code/issues/59696)
 * - Gemini 400 INVALID_ARGUMENT, "The input token count (1200293) exceeds the maximum number of tokens
 *   allowed (1048576)." (github.com/google-gemini/gemini-cli/issues/6678)
 */
const CONTEXT_LENGTH =
  /context_length_exceeded|exceeds the context window|maximum context length is|prompt is too long: \d+ tokens|input token count \(\d+\) exceeds the maximum number of tokens/i;

function modelUnsupported(status: number, text: string): boolean {
  if (status !== 400 && status !== 404) return false;
  return MODEL_UNSUPPORTED.test(text) || (status === 404 && /not_found_error/.test(text));
}

/** Kind for an HTTP status (and, for 400/404/429, what the body says). */
export function kindForStatus(status: number, body?: unknown): ProviderErrorKind {
  const text = bodyText(body);
  if (status === 401 || status === 403) return "auth";
  // Gemini answers a bad key with 400 INVALID_ARGUMENT / API_KEY_INVALID.
  if (status === 400 && /API_KEY_INVALID|API key not valid/i.test(text)) return "auth";
  if (status === 402) return "quota";
  // Gemini: a violated per-day quota lasts until the daily reset (not retried); a per-minute one is a
  // rate limit, retried after its RetryInfo delay. Its message mentions billing either way.
  const ids = status === 429 ? quotaIds(body) : undefined;
  if (ids) return ids.some((id) => /PerDay/i.test(id)) ? "quota" : "rate_limit";
  if (status === 429) {
    return /insufficient_quota/i.test(text) ||
      (/quota|RESOURCE_EXHAUSTED/i.test(text) && /billing/i.test(text))
      ? "quota"
      : "rate_limit";
  }
  if ((status === 400 || status === 413) && CONTEXT_LENGTH.test(text)) return "context_length";
  if (modelUnsupported(status, text)) return "model_unsupported";
  if (status === 400 || status === 404 || status === 413 || status === 422) return "bad_request";
  if (status === 529 || status === 503) return "overloaded";
  if (status === 408 || status === 409 || (status >= 500 && status < 600)) return "server";
  if (status >= 400 && status < 500) return "bad_request";
  return "unknown";
}

/** Kind for an error that arrived inside a stream with no status (Anthropic `event: error`). */
function kindForErrorType(type: string): ProviderErrorKind {
  switch (type) {
    case "overloaded_error":
      return "overloaded";
    case "rate_limit_error":
      return "rate_limit";
    case "api_error":
    case "server_error":
    case "timeout_error":
      return "server";
    case "authentication_error":
    case "permission_error":
      return "auth";
    case "invalid_request_error":
    case "not_found_error":
    case "request_too_large":
      return "bad_request";
    case "billing_error":
    case "insufficient_quota": // OpenAI: an `error` event or `response.failed` inside a 200 stream
      return "quota";
    case "rate_limit_exceeded":
      return "rate_limit";
    case "context_length_exceeded": // OpenAI: an `error` event or `response.failed` inside a 200 stream
      return "context_length";
    default:
      return "unknown";
  }
}

const SUMMARY: Record<ProviderErrorKind, string> = {
  auth: "authentication failed",
  bad_request: "request rejected",
  model_unsupported: "this model cannot serve the request",
  context_length: "the input is longer than the model accepts",
  rate_limit: "rate limited",
  quota: "quota exhausted",
  overloaded: "overloaded",
  server: "server error",
  network: "network error",
  idle_timeout: "stream idle timeout",
  truncated: "stream ended early",
  aborted: "aborted",
  unknown: "failed",
};

function keyHint(ctx: ErrorContext): string {
  return ctx.providerName === ctx.provider
    ? `check ${KEY_VARS[ctx.provider]}`
    : `check the API key configured for ${ctx.providerName}`;
}

/** Builds a ProviderError with a message naming provider, model and status; the key is redacted. */
export function makeProviderError(
  ctx: ErrorContext,
  kind: ProviderErrorKind,
  detail = "",
  status?: number,
  retryAfterMs?: number,
): ProviderError {
  const head = `${ctx.providerName} ${ctx.model}: ${status !== undefined ? `${status} ` : ""}${SUMMARY[kind]}`;
  const hint = kind === "auth" ? ` (${keyHint(ctx)})` : "";
  const trimmed = detail.length > 300 ? `${detail.slice(0, 300)}…` : detail;
  const raw = `${head}${hint}${trimmed ? `: ${trimmed}` : ""}`;
  const message = new Redactor(ctx.apiKey ? [ctx.apiKey] : []).redact(raw);
  const error: ProviderError = {
    kind,
    message,
    provider: ctx.provider,
    providerName: ctx.providerName,
    model: ctx.model,
  };
  if (status !== undefined) error.status = status;
  if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
  return error;
}

/** Classifies an HTTP failure (status, headers, body). */
export function classifyHttpFailure(ctx: ErrorContext, failure: HttpFailure): ProviderError {
  const status = failure.status;
  let kind: ProviderErrorKind = "unknown";
  if (status !== undefined) kind = kindForStatus(status, failure.body);
  else {
    const body = failure.body as
      | { type?: unknown; code?: unknown; error?: { type?: unknown; code?: unknown } }
      | undefined;
    // OpenAI stream errors carry the specific reason in `code` (insufficient_quota, server_error, …).
    for (const value of [body?.error?.code, body?.code, body?.error?.type, body?.type]) {
      if (typeof value === "string" && kind === "unknown") kind = kindForErrorType(value);
    }
    // Anthropic's in-stream `invalid_request_error` names a too-long prompt only in its message.
    if ((kind === "bad_request" || kind === "unknown") && CONTEXT_LENGTH.test(bodyText(failure.body)))
      kind = "context_length";
  }
  return makeProviderError(ctx, kind, apiMessage(failure.body), status, parseRetryAfter(failure));
}

/**
 * An error reported inside a 200 stream (OpenAI `response.failed`, or an incomplete response we cannot
 * use), classified by its code: `insufficient_quota` is quota (not retried), `rate_limit_exceeded` a rate
 * limit, `server_error` a server error.
 */
export function classifyStreamError(
  ctx: ErrorContext,
  failure: { code: string | null; message: string },
): ProviderError {
  return classifyHttpFailure(ctx, { body: { code: failure.code, message: failure.message } });
}

/** The JSON inside an SDK message (@google/genai puts the body there, sometimes after a prefix). */
function jsonOrText(text: string): unknown {
  for (const start of [0, text.indexOf("{")]) {
    if (start < 0) continue;
    try {
      return JSON.parse(text.slice(start));
    } catch {
      // Not JSON from here.
    }
  }
  return text;
}

function errorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function isAbort(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === "AbortError" || name === "APIUserAbortError";
}

/**
 * Classifies anything an SDK threw. `signal` decides aborts; `failure` adds HTTP facts the SDK error
 * lacks (e.g. response headers captured by a fetch wrapper).
 */
export function classifyError(
  ctx: ErrorContext,
  err: unknown,
  signal?: AbortSignal,
  failure: HttpFailure = {},
): ProviderError {
  if (signal?.aborted || isAbort(err)) return makeProviderError(ctx, "aborted");
  const e = (err ?? {}) as { status?: unknown; headers?: unknown; error?: unknown; message?: unknown };
  const status = typeof e.status === "number" ? e.status : failure.status;
  const message = typeof e.message === "string" ? e.message : String(err);
  const name = (err as { name?: unknown } | null)?.name;
  if (name === "APIConnectionError" || name === "APIConnectionTimeoutError" || errorCode(err)) {
    const code = errorCode(err);
    const error = makeProviderError(
      ctx,
      "network",
      code && !message.includes(code) ? `${code}: ${message}` : message,
    );
    // Node reports a refused connection as ECONNREFUSED, Bun's fetch as ConnectionRefused.
    if (code === "ECONNREFUSED" || code === "ConnectionRefused") error.connectionRefused = true;
    return error;
  }
  const headers = e.headers instanceof Headers ? e.headers : failure.headers;
  // Anthropic/OpenAI keep the parsed body on `.error`; @google/genai puts the JSON body in the message.
  const body = e.error !== undefined ? e.error : status !== undefined ? jsonOrText(message) : failure.body;
  if (status !== undefined || (e.error && typeof e.error === "object")) {
    return classifyHttpFailure(ctx, { status, headers, body });
  }
  if (/socket|connection|network|fetch failed|ECONNRESET/i.test(message)) {
    return makeProviderError(ctx, "network", message);
  }
  return makeProviderError(ctx, "unknown", message);
}

/**
 * A refusal of the reasoning effort we sent: OpenAI's "Unsupported value: 'reasoning.effort' does not
 * support 'minimal' with this model…" / "'minimal' is not supported with the 'gpt-5.6-sol' model…"
 * (param `reasoning.effort` or `reasoning_effort`), Ollama's "invalid reasoning value: 'xhigh' (must be …)"
 * (github.com/ollama/ollama openai/openai.go), Gemini's thinking level.
 */
const EFFORT_REFUSED =
  /reasoning[._ ]effort|reasoning value|thinking[_ ]?level|is not supported with the '[^']+' model/i;

/**
 * `error` with the setting the user must change named, when it is a 400 refusing the reasoning effort the
 * request carried (a model outside the catalog gets the effort as configured, so only the user can fix it).
 */
export function namingEffortSetting(
  error: ProviderError,
  request: Pick<ModelRequest, "reasoningEffort">,
): ProviderError {
  const effort = request.reasoningEffort;
  if (effort === undefined || error.status !== 400 || !EFFORT_REFUSED.test(error.message)) return error;
  return {
    ...error,
    message: `${error.message} (the reasoning effort '${effort}' comes from \`reasoning_effort\` in config.yaml for the tier, or in the agent's spec: set one this model accepts)`,
  };
}
