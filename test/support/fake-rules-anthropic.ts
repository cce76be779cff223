/**
 * The rules of the real Anthropic API that the fake server enforces (see fake-rules.ts).
 *
 * Thinking blocks are bound to their prefix. The fake server signs each thinking block it sends as
 * `sig-fake.<hash>`, where the hash covers what came before the block when it was produced (`system`,
 * `tools`, and the request's `messages`; `cache_control` markers, which move between requests, are not
 * part of it). A request that sends such a block back after anything before it changed is answered as
 * the API documents (platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks and
 * .../fix-bound-to-a-different-conversation): "that block and every later thinking block are invalid";
 * with `thinking.block_binding.prefix_mismatch_behavior: "drop_block"` the request is served, the blocks
 * are removed and listed in `message_start.message.input_transformations` (`thinking_dropped`,
 * `prefix_binding_mismatch`; the Fable 5.1 recording in test/fixtures/conformance/recorded-exchanges/anthropic
 * shows exactly that); without it, 400 with the error text below. Signatures the fake did not make
 * (recorded ones) are not checked.
 */
import { createHash } from "node:crypto";
import { errorBody, type FakeTurn } from "./fake-llm-frames.ts";
import type { FakeRule, Refusal, RuleRequest } from "./fake-rules.ts";
import { objectSchemas } from "./fake-rules-schema.ts";

const PREFIX = "sig-fake.";

interface Body {
  system?: unknown;
  tools?: unknown;
  messages?: { role?: string; content?: unknown }[];
  thinking?: { type?: string; block_binding?: { prefix_mismatch_behavior?: string } | null } | null;
  temperature?: number;
}

/** A deep copy without `cache_control` keys, in a stable form for hashing. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) if (key !== "cache_control") out[key] = stable(inner);
  return out;
}

function prefixHash(body: Body, messageCount: number): string {
  const prefix = {
    system: body.system ?? null,
    tools: body.tools ?? null,
    messages: body.messages?.slice(0, messageCount),
  };
  return createHash("sha256")
    .update(JSON.stringify(stable(prefix)))
    .digest("hex")
    .slice(0, 24);
}

/** The signature of a thinking block the fake produces in answer to `body`. */
export function thinkingSignatureFor(body: unknown): string {
  const b = (body ?? {}) as Body;
  return `${PREFIX}${prefixHash(b, b.messages?.length ?? 0)}`;
}

/** Paths (`messages.i.content.j`) of the fake's thinking blocks that fail the prefix check. */
function invalidThinking(body: Body): string[] {
  const invalid: string[] = [];
  let failed = false;
  for (const [i, message] of (body.messages ?? []).entries()) {
    if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const [j, block] of (message.content as Record<string, unknown>[]).entries()) {
      if (block.type !== "thinking" && block.type !== "redacted_thinking") continue;
      const signature = block.type === "thinking" ? block.signature : block.data;
      if (typeof signature !== "string" || !signature.startsWith(PREFIX)) continue;
      // Once one block fails, every later thinking block is invalid too.
      failed ||= signature !== `${PREFIX}${prefixHash(body, i)}`;
      if (failed) invalid.push(`messages.${i}.content.${j}`);
    }
  }
  return invalid;
}

function dropsBlocks(body: Body): boolean {
  return body.thinking?.block_binding?.prefix_mismatch_behavior === "drop_block";
}

/** `input_transformations` for a request the API serves after dropping stale thinking blocks. */
export function anthropicInputTransformations(body: unknown): unknown[] {
  const b = (body ?? {}) as Body;
  if (!dropsBlocks(b)) return [];
  return invalidThinking(b).map((path) => ({
    type: "thinking_dropped",
    path,
    reason: "prefix_binding_mismatch",
  }));
}

/** The turn as the fake serves it for `body`: its thinking bound to the request, stale blocks reported. */
export function bindAnthropicTurn(turn: FakeTurn, body: unknown): FakeTurn {
  const dropped = anthropicInputTransformations(body);
  const bound: FakeTurn = {
    ...turn,
    reasoningSignature: turn.reasoningSignature ?? thinkingSignatureFor(body),
  };
  if (dropped.length > 0 || turn.inputTransformations)
    bound.inputTransformations = [...(turn.inputTransformations ?? []), ...dropped];
  return bound;
}

function invalidRequest(message: string): Refusal {
  return { status: 400, body: { type: "error", error: { type: "invalid_request_error", message } } };
}

/** A changed prefix without drop_block: the documented 400 (.../fix-bound-to-a-different-conversation). */
const thinkingPrefixRule: FakeRule = (request: RuleRequest) => {
  const body = (request.body ?? {}) as Body;
  if (dropsBlocks(body)) return null;
  const [first] = invalidThinking(body);
  if (!first) return null;
  return invalidRequest(
    `${first}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`,
  );
};

/**
 * Sampling parameters with thinking: "`temperature` may only be set to 1 when thinking is enabled or in
 * adaptive mode." (the API's 400, as reported in github.com/MayDay-wpf/snow-app/issues/42, 2026-08;
 * platform.claude.com/docs/en/build-with-claude/extended-thinking).
 */
const temperatureWithThinkingRule: FakeRule = (request: RuleRequest) => {
  const body = (request.body ?? {}) as Body;
  const thinking = body.thinking?.type;
  if ((thinking !== "adaptive" && thinking !== "enabled") || body.temperature === undefined) return null;
  if (body.temperature === 1) return null;
  return invalidRequest(
    "`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. Please consult our documentation at https://platform.claude.com/docs/en/build-with-claude/extended-thinking",
  );
};

/**
 * Rule: structured outputs (`output_config.format` json_schema) need `additionalProperties: false` on
 * every object schema, whatever else the schema says (platform.claude.com/docs/en/build-with-claude/
 * structured-outputs: "additionalProperties (must be set to false for objects)"). Real 400 text from
 * veryfront/veryfront-code#3918/#3921: "output_config.format.schema: For 'object' type,
 * 'additionalProperties' must be explicitly set to false".
 */
const closedOutputObjects: FakeRule = (request) => {
  const body = request.body as { output_config?: { format?: { type?: string; schema?: unknown } } } | null;
  const format = body?.output_config?.format;
  if (format?.type !== "json_schema") return null;
  const open = objectSchemas(format.schema).find(({ schema }) => schema.additionalProperties !== false);
  if (!open) return null;
  return {
    status: 400,
    body: errorBody(
      "anthropic",
      400,
      "output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false",
    ),
  };
};

/**
 * The models that run the thinking prefix check and so accept `thinking.block_binding` (the
 * prefix-checks page, platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks,
 * as quoted in issue 20): the fake's own list, not the catalog's.
 */
const PREFIX_CHECK_MODELS = new Set([
  "claude-fable-5-2",
  "claude-mythos-5-2",
  "claude-fable-5-1",
  "claude-mythos-5-1",
  "claude-opus-5-5",
  "claude-sonnet-5-5",
  "claude-haiku-5-5",
]);

/**
 * Rule: `block_binding` on a model without the prefix check is refused with 400, the text from the public
 * report quoted in issue 20: "thinking.adaptive.block_binding: Extra inputs are not permitted".
 */
const blockBindingNeedsPrefixCheck: FakeRule = (request) => {
  const body = request.body as Body | null;
  if (!body?.thinking?.block_binding || PREFIX_CHECK_MODELS.has(request.model)) return null;
  return {
    status: 400,
    body: errorBody("anthropic", 400, "thinking.adaptive.block_binding: Extra inputs are not permitted"),
  };
};

/** A `\uD800`-`\uDBFF` escape not followed by a low one, not itself escaped (an even run of backslashes before it). */
const LONE_HIGH_SURROGATE = /(?<!\\)(?:\\\\)*\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})/;

/**
 * A lone high surrogate in the body's JSON (what JSON.stringify writes for half an emoji) is refused
 * before anything else: 400 invalid_request_error "The request body is not valid JSON: no low surrogate
 * in string: line 1 column 123349 (char 123348)" (anthropics/claude-code#5661, #6508, #8165, 2025; the
 * position here is where the escape starts).
 */
export const loneSurrogateRule: FakeRule = ({ raw }) => {
  const found = raw === undefined ? null : LONE_HIGH_SURROGATE.exec(raw);
  if (!found) return null;
  const at = found.index + found[0].lastIndexOf("\\u");
  return invalidRequest(
    `The request body is not valid JSON: no low surrogate in string: line 1 column ${at + 1} (char ${at})`,
  );
};

export const anthropicRules: FakeRule[] = [
  loneSurrogateRule,
  blockBindingNeedsPrefixCheck,
  thinkingPrefixRule,
  temperatureWithThinkingRule,
  closedOutputObjects,
];
