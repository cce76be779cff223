/** The rules of the real Anthropic API that the fake server enforces (see fake-rules.ts). */
import { errorBody } from "./fake-llm-frames.ts";
import type { FakeRule } from "./fake-rules.ts";
import { objectSchemas } from "./fake-rules-schema.ts";

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

export const anthropicRules: FakeRule[] = [closedOutputObjects];
