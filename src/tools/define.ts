/**
 * Builds a Primitive from a zod schema and three functions: arguments are validated before anything runs,
 * the JSON schema the model sees is derived from the same zod schema, and every result is redacted and
 * truncated in one place.
 */

import { z } from "zod";
import { ApprovalNeededError, type JsonSchema, Redactor, type ToolOutput } from "../kernel/index.ts";
import { DISPLAY_LIMIT, MODEL_TEXT_LIMIT, truncateText } from "./truncate.ts";
import type { PolicyTarget, Primitive, PrimitiveName, ToolContext, ValidationResult } from "./types.ts";

export interface PrimitiveSpec<A> {
  name: PrimitiveName;
  description: string;
  schema: z.ZodType<A>;
  readOnly: boolean;
  policyTarget(args: A, ctx: ToolContext): Promise<PolicyTarget>;
  preview(args: A, ctx: ToolContext): Promise<string>;
  /** Returns the raw result; throwing yields an error result whose text is the error's message. */
  run(args: A, ctx: ToolContext): Promise<ToolOutput>;
}

export function definePrimitive<A>(spec: PrimitiveSpec<A>): Primitive<A> {
  const validate = (args: unknown): ValidationResult<A> => {
    const parsed = spec.schema.safeParse(args);
    if (parsed.success) return { ok: true, value: parsed.data };
    return { ok: false, error: `invalid arguments for ${spec.name}: ${formatIssues(parsed.error)}` };
  };
  return {
    name: spec.name,
    description: spec.description,
    parameters: jsonSchemaOf(spec.schema),
    readOnly: spec.readOnly,
    validate,
    policyTarget: (args, ctx) => spec.policyTarget(args, ctx),
    preview: (args, ctx) => spec.preview(args, ctx),
    async run(args, ctx) {
      const checked = validate(args);
      if (!checked.ok) return finish(errorOutput(checked.error), ctx);
      if (ctx.signal.aborted) return finish(errorOutput(`${spec.name} aborted before it started`), ctx);
      try {
        return finish(await spec.run(checked.value, ctx), ctx);
      } catch (error) {
        // A question nobody can answer (`--on-ask fail`, e.g. on a redirect) ends the run, as at the gate.
        if (error instanceof ApprovalNeededError) throw error;
        return finish(errorOutput(error instanceof Error ? error.message : String(error)), ctx);
      }
    },
  };
}

/** An error result: the message for the model, its first line for the user. */
export function errorOutput(message: string): ToolOutput {
  const firstLine = message.split("\n", 1)[0] ?? message;
  return { modelText: `Error: ${message}`, display: `Error: ${firstLine}`, isError: true };
}

/** Redacts secrets from both texts and truncates them (the model's text with a note). */
export function finish(output: ToolOutput, ctx: ToolContext): ToolOutput {
  const redactor = ctx.redactor ?? Redactor.fromEnv();
  return {
    modelText: truncateText(redactor.redact(output.modelText), MODEL_TEXT_LIMIT),
    display: truncateText(redactor.redact(output.display), DISPLAY_LIMIT),
    isError: output.isError,
    ...(output.summary !== undefined ? { summary: redactor.redact(output.summary) } : {}),
    ...(output.tail !== undefined ? { tail: output.tail.map((line) => redactor.redact(line)) } : {}),
  };
}

/** The model-facing JSON schema: no `$schema` key, no safe-integer bounds, no extra properties. */
function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
  return { ...stripSafeIntegerBounds(rest), additionalProperties: false };
}

function stripSafeIntegerBounds(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === "properties" && value && typeof value === "object") {
      const props: Record<string, JsonSchema> = {};
      for (const [name, prop] of Object.entries(value as Record<string, JsonSchema>)) {
        props[name] = stripSafeIntegerBounds(prop);
      }
      out.properties = props;
    } else {
      out[key] = value;
    }
  }
  return out;
}

function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "arguments"}: ${issue.message}`)
    .join("; ");
}
