/**
 * The rules of the real OpenAI API that the fake server enforces (see fake-rules.ts), for Chat
 * Completions (`openai`) and Responses (`openai-responses`). The model facts here are the fake's own,
 * written from the sources cited, not imported from src/, so a wrong table in the code under test cannot
 * make the fake agree with it.
 */
import { errorBody } from "./fake-llm-frames.ts";
import type { FakeRule, Refusal, RuleRequest } from "./fake-rules.ts";
import { objectSchemas, pythonTuple } from "./fake-rules-schema.ts";

/** GPT-5.4 and later, and the GPT-6 family: reasoning models whose default effort is not `none`
 * (openai/openai-openapi#541 for gpt-5.4; GEMISIS/leviath#333 and GoogleChromeLabs/webmcp-tools#417 for
 * gpt-5.6-*; Wei-Shaw/sub2api#6740 for gpt-6-astra; the deployment checklist for the GPT-6 family). */
export function isCurrentReasoningModel(model: string): boolean {
  return /^gpt-(5\.([4-9]|\d{2,})|[6-9])/.test(model.toLowerCase());
}

/** Models that accept no `none` (nor `minimal`): "low, medium, high, xhigh, max"
 * (UKGovernmentBEIS/inspect_ai#5254 live probes for gpt-6-astra; dev.to/aihubmix for gpt-6.1-sol;
 * the deployment checklist: "GPT-6 Astra and GPT-6.1 Sol require Responses for tool calling"). */
const NO_NONE = /^gpt-(6-astra|6\.1-sol|6\.2-)/;

/** GPT-5.6 models answer `minimal` with their own text, quoted in issue 20 (OpenAI's 400 for gpt-5.6-sol). */
const GPT_5_6 = /^gpt-5\.6-/;

interface Body {
  tools?: unknown[];
  reasoning_effort?: string;
  reasoning?: { effort?: string; summary?: string | null } | null;
  temperature?: number;
  top_p?: number;
  store?: boolean;
  input?: unknown;
  response_format?: { type?: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
  text?: { format?: { type?: string; name?: string; schema?: unknown; strict?: boolean } };
  prompt_cache_key?: unknown;
  include?: unknown;
}

function bodyOf(request: RuleRequest): Body {
  return (request.body && typeof request.body === "object" ? request.body : {}) as Body;
}

function refuse(status: number, message: string, param: string | null, code: string | null = null): Refusal {
  const body = errorBody("openai", status, message) as { error: Record<string, unknown> };
  body.error.param = param;
  body.error.code = code;
  return { status, body };
}

/** The effort a request runs at: the one it names, or the model's default (`medium` for the current
 * reasoning models; inspect_ai#5254 observed the echo `reasoning.effort: "medium"`). */
function effortOf(request: RuleRequest): string {
  const body = bodyOf(request);
  const named = request.protocol === "openai" ? body.reasoning_effort : body.reasoning?.effort;
  return named ?? "medium";
}

/**
 * Rule: Chat Completions with function tools on a current reasoning model whose effort is not `none` is
 * refused with 400 (real text from GEMISIS/leviath#333, GoogleChromeLabs/webmcp-tools#417,
 * laurent22/joplin#16451 — the default effort counts, so omitting `reasoning_effort` is refused too).
 */
const chatToolsNeedNoReasoning: FakeRule = (request) => {
  if (request.protocol !== "openai" || !isCurrentReasoningModel(request.model)) return null;
  const body = bodyOf(request);
  if (!Array.isArray(body.tools) || body.tools.length === 0 || effortOf(request) === "none") return null;
  return refuse(
    400,
    `Function tools with reasoning_effort are not supported for ${request.model} in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.`,
    "reasoning_effort",
  );
};

/**
 * Rule: `none` and `minimal` are refused where the model has no such effort, on either endpoint, with the
 * API's "Unsupported value" text (format from Kilo-Org/cloud#3807; values from inspect_ai#5254:
 * "Supported values are: 'low', 'medium', 'high', 'xhigh', and 'max'"). `minimal` is refused by every
 * GPT-6 model (qiita.com/Synthorai, GPT-6 Astra effort measurements).
 */
const unsupportedEffort: FakeRule = (request) => {
  if (!isCurrentReasoningModel(request.model)) return null;
  const effort = effortOf(request);
  const refused = effort === "minimal" || (effort === "none" && NO_NONE.test(request.model.toLowerCase()));
  if (!refused) return null;
  const param = request.protocol === "openai" ? "reasoning_effort" : "reasoning.effort";
  const supported = NO_NONE.test(request.model.toLowerCase())
    ? "'low', 'medium', 'high', 'xhigh', and 'max'"
    : "'none', 'low', 'medium', 'high', 'xhigh', and 'max'";
  if (GPT_5_6.test(request.model.toLowerCase()))
    return refuse(
      400,
      `'${effort}' is not supported with the '${request.model}' model. Supported values are: ${supported}.`,
      param,
      "unsupported_value",
    );
  return refuse(
    400,
    `Unsupported value: '${param}' does not support '${effort}' with this model. Supported values are: ${supported}.`,
    param,
    "unsupported_value",
  );
};

/**
 * Rule: sampling parameters only without reasoning. Deployment checklist: "When reasoning effort is not
 * none, remove temperature, top_p, and top_logprobs"; dcdpr/jp#1086: "temperature and top_p … parameters
 * Astra refuses outright"; decolua/9router#536: GPT 5.5, 5.6 and later refuse it too. Answered with the
 * API's text and code as reported in appatalks/eva-agent#83 and soberlemur/autopo#57 ("Unsupported
 * parameter: 'temperature' is not supported with this model.", code `unsupported_parameter`).
 */
const samplingNeedsNoReasoning: FakeRule = (request) => {
  if (!isCurrentReasoningModel(request.model) || effortOf(request) === "none") return null;
  const body = bodyOf(request);
  const param = body.temperature !== undefined ? "temperature" : body.top_p !== undefined ? "top_p" : null;
  if (param === null) return null;
  return refuse(
    400,
    `Unsupported parameter: '${param}' is not supported with this model.`,
    param,
    "unsupported_parameter",
  );
};

/**
 * Rule: with `store: false` nothing is kept server-side, so a reasoning item sent back without its
 * `encrypted_content` cannot be resolved: HTTP 404 (real text from can1357/oh-my-pi#41 and
 * anomalyco/opencode#7724; vercel/ai#7543).
 */
const statelessReasoningNeedsContent: FakeRule = (request) => {
  if (request.protocol !== "openai-responses") return null;
  const body = bodyOf(request);
  if (body.store !== false || !Array.isArray(body.input)) return null;
  for (const item of body.input as { type?: unknown; id?: unknown; encrypted_content?: unknown }[]) {
    if (item?.type !== "reasoning" || (typeof item.encrypted_content === "string" && item.encrypted_content))
      continue;
    const id = typeof item.id === "string" ? item.id : "rs_unknown";
    return refuse(
      404,
      `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
      "input",
    );
  }
  return null;
};

/**
 * Rule: a strict `json_schema` format (Chat Completions `response_format`, Responses `text.format`) needs
 * `additionalProperties: false` on every object and every property in `required`
 * (platform.openai.com/docs/guides/structured-outputs, "Supported schemas"). Real texts: "Invalid schema
 * for response_format 'json_schema': In context=(), 'additionalProperties' is required to be supplied and
 * to be false." (moeru-ai/xsai#145, param `response_format`, code null; on Responses param
 * `text.format.schema`, code `invalid_json_schema`, mavam/pi-web-providers#14) and "… In
 * context=('properties', 'organizations', 'items'), 'required' is required to be supplied and to be an
 * array including every key in properties. Missing 'roles'." (vercel/ai#6484).
 */
const strictSchemaRules: FakeRule = (request) => {
  const body = bodyOf(request);
  const format = request.protocol === "openai" ? body.response_format?.json_schema : body.text?.format;
  if (format?.strict !== true) return null;
  const chat = request.protocol === "openai";
  const name = format.name ?? "response";
  const fail = (context: string[], what: string): Refusal =>
    refuse(
      400,
      `Invalid schema for response_format '${name}': In context=${pythonTuple(context)}, ${what}`,
      chat ? "response_format" : "text.format.schema",
      chat ? null : "invalid_json_schema",
    );
  for (const { path, schema } of objectSchemas(format.schema)) {
    if (schema.additionalProperties !== false) {
      return fail(path, "'additionalProperties' is required to be supplied and to be false.");
    }
    const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = properties.find((p) => !required.includes(p));
    if (missing !== undefined) {
      return fail(
        path,
        `'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`,
      );
    }
  }
  return null;
};

/**
 * Rule: Chat Completions takes images only in user messages. A `tool` (or assistant, system) message with
 * an `image_url` part is refused with 400, real text quoted in OpenHands/OpenHands#7700 (role tool) and
 * openai/openai-node#1030 (role assistant); ChatCompletionToolMessageParam.content is text only.
 */
const imagesOnlyInUserMessages: FakeRule = (request) => {
  if (request.protocol !== "openai") return null;
  const messages = (bodyOf(request) as { messages?: { role?: string; content?: unknown }[] }).messages ?? [];
  for (const [i, message] of messages.entries()) {
    if (message.role === "user" || !Array.isArray(message.content)) continue;
    if (!(message.content as { type?: string }[]).some((part) => part.type === "image_url")) continue;
    return refuse(
      400,
      `Invalid 'messages[${i}]'. Image URLs are only allowed for messages with role 'user', but this message with role '${message.role}' contains an image URL.`,
      `messages.[${i}].content`,
      "invalid_value",
    );
  }
  return null;
};

/**
 * Rule: a Responses `function_call_output` whose `output` is a list takes only `input_text`,
 * `input_image` and `input_file` items (ResponseFunctionCallOutputItem in openai
 * resources/responses/responses.d.ts); an image needs `image_url` or `file_id`. Anything else is a 400
 * "Invalid value" naming the item, as the API answers an unknown `type` (the SDK's union is closed).
 */
const functionOutputItems: FakeRule = (request) => {
  if (request.protocol !== "openai-responses") return null;
  const input = bodyOf(request).input;
  if (!Array.isArray(input)) return null;
  for (const [i, item] of (input as { type?: string; output?: unknown }[]).entries()) {
    if (item.type !== "function_call_output" || !Array.isArray(item.output)) continue;
    for (const [j, part] of (
      item.output as { type?: string; image_url?: unknown; file_id?: unknown }[]
    ).entries()) {
      const known = part.type === "input_text" || part.type === "input_image" || part.type === "input_file";
      const imageOk =
        part.type !== "input_image" || typeof part.image_url === "string" || typeof part.file_id === "string";
      if (known && imageOk) continue;
      return refuse(
        400,
        `Invalid value: '${String(part.type)}'.`,
        `input[${i}].output[${j}]`,
        "invalid_value",
      );
    }
  }
  return null;
};

/**
 * Rule: `prompt_cache_key` is at most 64 characters, on either endpoint. Real body quoted in
 * theopenco/llmgateway#3110: "Invalid 'prompt_cache_key': string too long. Expected a string with maximum
 * length 64, but got a string with length 72 instead.", type `invalid_request_error`, param
 * `prompt_cache_key`, code `string_above_max_length` (the same text in vybestack/llxprt-code#2135 and
 * earendil-works/pi#4719).
 */
const promptCacheKeyLength: FakeRule = (request) => {
  const key = bodyOf(request).prompt_cache_key;
  if (typeof key !== "string" || key.length <= 64) return null;
  return refuse(
    400,
    `Invalid 'prompt_cache_key': string too long. Expected a string with maximum length 64, but got a string with length ${key.length} instead.`,
    "prompt_cache_key",
    "string_above_max_length",
  );
};

/** Models that do not reason (pydantic-ai profiles/openai.py, whose reasoning table was checked against
 * the live API: gpt-4o, gpt-4.1 and older, and gpt-5-chat-latest "doesn't reason at all"). */
const NOT_REASONING = /^(gpt-3\.5|gpt-4(?![.\d])|gpt-4-|gpt-4o|gpt-4\.1|gpt-5-chat)/;

/**
 * Rule: encrypted reasoning is asked of a model that does not reason: 400 "Encrypted content is not
 * supported with this model.", type `invalid_request_error`, param `include`, code null (the body in
 * pydantic/pydantic-ai#3326 for gpt-5-chat-latest, microsoft/agent-framework#7577 for gpt-4.1-mini and
 * #7483 for gpt-4.1).
 */
const encryptedContentNeedsReasoning: FakeRule = (request) => {
  if (request.protocol !== "openai-responses" || !NOT_REASONING.test(request.model.toLowerCase()))
    return null;
  const include = bodyOf(request).include;
  if (!Array.isArray(include) || !include.includes("reasoning.encrypted_content")) return null;
  return refuse(400, "Encrypted content is not supported with this model.", "include");
};

/**
 * Rule (switch `settings.unverifiedOrganization`): an organization that has not been verified may not
 * ask for reasoning summaries. Real body quoted in continuedev/continue#9283, #9602 and
 * OpenHands/software-agent-sdk#987: param `reasoning.summary`, code `unsupported_value`.
 */
const summariesNeedVerifiedOrganization: FakeRule = (request) => {
  if (request.protocol !== "openai-responses" || !request.settings?.unverifiedOrganization) return null;
  if (!bodyOf(request).reasoning?.summary) return null;
  return refuse(
    400,
    "Your organization must be verified to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.",
    "reasoning.summary",
    "unsupported_value",
  );
};

export const openaiRules: FakeRule[] = [
  promptCacheKeyLength,
  encryptedContentNeedsReasoning,
  summariesNeedVerifiedOrganization,
  imagesOnlyInUserMessages,
  functionOutputItems,
  strictSchemaRules,
  unsupportedEffort,
  chatToolsNeedNoReasoning,
  samplingNeedsNoReasoning,
  statelessReasoningNeedsContent,
];
