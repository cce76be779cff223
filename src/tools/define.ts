/**
 * Builds a Primitive from a zod schema and three functions: arguments are validated before anything runs,
 * and the JSON schema the model sees is derived from the same zod schema. In a session the pipeline
 * (src/agents/loop/tool-calls/invoke.ts) runs it; `run` is the standalone path, finished the same way (tool-output.ts).
 */

import { z } from "zod";
import type { JsonSchema, ToolOutput } from "../kernel/index.ts";
import { Redactor } from "../kernel/text/redact.ts";
import { errorOutput, finishOutput } from "./tool-output.ts";
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
  /** Runs the call; a throw is an error result whose text is the error's message. */
  const execute = async (args: A, ctx: ToolContext): Promise<ToolOutput> => {
    try {
      return await spec.run(args, ctx);
    } catch (error) {
      return errorOutput(error instanceof Error ? error.message : String(error));
    }
  };
  return {
    name: spec.name,
    kind: "primitive",
    description: spec.description,
    parameters: jsonSchemaOf(spec.schema),
    readOnly: spec.readOnly,
    concurrent: spec.readOnly,
    policyName: spec.name,
    validate,
    policyTarget: (args, ctx) => spec.policyTarget(args, ctx),
    preview: (args, ctx) => spec.preview(args, ctx),
    execute,
    async run(args, ctx) {
      const redactor = ctx.redactor ?? Redactor.fromEnv();
      const checked = validate(args);
      if (!checked.ok) return finishOutput(errorOutput(checked.error), redactor);
      if (ctx.signal.aborted)
        return finishOutput(errorOutput(`${spec.name} aborted before it started`), redactor);
      return finishOutput(await execute(checked.value, ctx), redactor);
    },
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
