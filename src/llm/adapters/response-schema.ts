/**
 * What the OpenAI and Gemini structured-output features accept of a JSON schema (`--schema`); Anthropic's
 * schema goes through the SDK's own transformJSONSchema (src/llm/adapters/anthropic-convert.ts). The user's whole
 * schema is always checked again on our side (src/agents/loop/output-schema.ts), so what a provider is sent
 * may differ from it (constraints dropped, objects closed) as long as the answers it permits can still be
 * checked against the user's schema.
 */
import type { ResponseSchema } from "../../kernel/conversation/stream.ts";

type Schema = Record<string, unknown>;

/** Keywords whose values are subschemas, keyed by how they hold them. */
const SINGLE = ["items", "not", "additionalItems", "contains", "if", "then", "else"];
const LISTS = ["anyOf", "allOf", "oneOf", "prefixItems"];
const MAPS = ["properties", "$defs", "definitions", "patternProperties"];

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isObjectSchema(schema: Schema): boolean {
  return schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object"));
}

/** Calls `visit` on `schema` and every subschema below it (depth first). */
function walk(schema: Schema, visit: (s: Schema) => void): void {
  visit(schema);
  for (const key of SINGLE) if (isSchema(schema[key])) walk(schema[key] as Schema, visit);
  for (const key of LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) for (const s of list) if (isSchema(s)) walk(s, visit);
  }
  for (const key of MAPS) {
    const map = schema[key];
    if (isSchema(map)) for (const s of Object.values(map)) if (isSchema(s)) walk(s, visit);
  }
  if (isSchema(schema.additionalProperties)) walk(schema.additionalProperties, visit);
}

/**
 * True when OpenAI's strict mode accepts the schema as it is: the root is an object and every object
 * schema has `additionalProperties: false` and lists every property in `required` (platform.openai.com
 * guides/structured-outputs "Supported schemas"; the 400s quoted in test/support/fake-rules-openai.ts).
 * A schema that is not strict-compatible is sent with `strict: false` instead of being rewritten: strict
 * mode would make optional fields required.
 */
export function isStrictCompatible(schema: Schema): boolean {
  if (!isObjectSchema(schema)) return false;
  let ok = true;
  walk(schema, (s) => {
    if (!isObjectSchema(s) && !isSchema(s.properties)) return;
    if (s.additionalProperties !== false) ok = false;
    const properties = isSchema(s.properties) ? Object.keys(s.properties) : [];
    const required = Array.isArray(s.required) ? s.required : [];
    if (properties.some((p) => !required.includes(p))) ok = false;
  });
  return ok;
}

/** The OpenAI `json_schema` format body (Responses `text.format`, Chat Completions `json_schema`). */
export function openaiJsonSchema(format: ResponseSchema): {
  name: string;
  schema: Schema;
  strict: boolean;
} {
  return { name: format.name, schema: format.schema, strict: isStrictCompatible(format.schema) };
}

/**
 * Whether a Gemini model may get a response schema in a request that also offers function tools:
 * Gemini 3 models may ("Structured outputs with tools", ai.google.dev/gemini-api/docs/structured-output);
 * earlier ones answer 400 "Function calling with a response mime type: 'application/json' is
 * unsupported" (google-gemini/deprecated-generative-ai-swift#195, symfony/ai#1777 on gemini-2.5-flash).
 */
export function geminiSchemaWithTools(model: string): boolean {
  const version = /^gemini-(\d+)/.exec(model)?.[1];
  return version === undefined || Number(version) >= 3;
}
