/**
 * `--schema`: the final answer must be a JSON value valid against a JSON schema. The schema is checked
 * with Ajv (a maintained validator, imported only when a schema is given) on every path, also where the
 * provider's native structured output already constrained the answer; an answer that fails is re-asked
 * once with the validation error (see docs/ci-and-json.md "Structured output").
 */
import type { ModelRequest, ResponseSchema } from "../../kernel/index.ts";
import type { Finish } from "./finish.ts";

/** The outcome of checking one answer: the JSON value as compact text, or why it does not match. */
export type OutputCheck = { ok: true; json: string } | { ok: false; error: string };

/** A compiled schema: what adapters send natively, and the check of an answer. */
export interface OutputSchema extends ResponseSchema {
  check(answer: string): OutputCheck;
}

/** A fenced block around the whole answer (```json … ```), which models add when not constrained. */
const FENCED = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/;

/**
 * Compiles a schema for its dialect (`$schema` naming draft-07/06/04 or 2019-09 selects that dialect;
 * otherwise draft 2020-12, the dialect the providers document). Throws an Error naming the problem when
 * the schema itself is invalid.
 */
export async function compileOutputSchema(format: ResponseSchema): Promise<OutputSchema> {
  const dialect = typeof format.schema.$schema === "string" ? format.schema.$schema : "";
  const { default: AjvClass } = /draft-0[4-7]/.test(dialect)
    ? await import("ajv")
    : /2019-09/.test(dialect)
      ? await import("ajv/dist/2019")
      : await import("ajv/dist/2020");
  const ajv = new AjvClass({ allErrors: true, strict: false });
  const validate = ajv.compile(format.schema);
  return {
    ...format,
    check(answer: string): OutputCheck {
      const text = answer.trim();
      const body = FENCED.exec(text)?.[1] ?? text;
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch (error) {
        return { ok: false, error: `the answer is not JSON (${(error as Error).message})` };
      }
      if (validate(value)) return { ok: true, json: JSON.stringify(value) };
      return { ok: false, error: ajv.errorsText(validate.errors, { dataVar: "answer", separator: "; " }) };
    },
  };
}

/** What the model is told when its answer did not match: the error, and to answer with the JSON alone. */
export function reaskMessage(error: string): string {
  return (
    `Your answer does not match the required JSON schema: ${error}. ` +
    "Reply again with only a JSON value that matches the schema: no prose, no code fence."
  );
}

/** A schema name OpenAI accepts (`^[a-zA-Z0-9_-]{1,64}$`), from a file name; `answer` otherwise. */
export function schemaName(source: string | undefined): string {
  const base = (source ?? "")
    .replace(/^.*[\\/]/, "")
    .replace(/\.(schema\.)?json$/i, "")
    .replace(/[^a-zA-Z0-9_-]/g, "_")
    .slice(0, 64);
  return /[a-zA-Z0-9]/.test(base) ? base : "answer";
}

/** What to do with a final answer under `--schema`. */
export type ShapedAnswer =
  | { action: "accept"; answer: string }
  | { action: "reask"; note: string; error: string }
  | { action: "fail"; error: string };

/**
 * The loop's side of `--schema` (one per run): accepts a matching answer as its compact JSON, asks
 * again once with the validation error, then fails. Without a schema every answer is accepted as it is.
 */
export class AnswerShaper {
  private reasked = false;

  constructor(private readonly schema: OutputSchema | undefined) {}

  /** The request field that sends the schema natively (none without a schema). */
  request(): Pick<ModelRequest, "responseSchema"> {
    return this.schema ? { responseSchema: { name: this.schema.name, schema: this.schema.schema } } : {};
  }

  /**
   * How the loop ends on a final answer (`stop`, or a stall's forced answer, which is never re-asked):
   * the finish, or the note to send back for one more turn. A failed answer leaves nothing on stdout
   * (a script could not parse it); the error says what was wrong.
   */
  end(finishReason: "stop" | "stall", answer: string): Finish | { reask: string; error: string } {
    const shaped = this.decide(answer, finishReason === "stop");
    if (shaped.action === "accept") return { finishReason, answer: shaped.answer };
    if (shaped.action === "reask") return { reask: shaped.note, error: shaped.error };
    return { finishReason: "invalid_output", answer: "", error: { kind: "schema", message: shaped.error } };
  }

  /**
   * A partial answer a limit left (budget, turns, timeout): under a schema it is printed only when it
   * already matches (as its JSON), so stdout never holds text a script cannot parse.
   */
  partial(answer: string): string {
    if (!this.schema || answer === "") return answer;
    const checked = this.schema.check(answer);
    return checked.ok ? checked.json : "";
  }

  /** `canReask` is false where no further turn may be taken (a stall already forced the answer). */
  decide(answer: string, canReask = true): ShapedAnswer {
    if (!this.schema) return { action: "accept", answer };
    const checked = this.schema.check(answer);
    if (checked.ok) return { action: "accept", answer: checked.json };
    if (canReask && !this.reasked) {
      this.reasked = true;
      return { action: "reask", note: reaskMessage(checked.error), error: checked.error };
    }
    return { action: "fail", error: `the answer does not match --schema: ${checked.error}` };
  }
}
