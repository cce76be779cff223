/**
 * A server's elicitation (`elicitation/create`, form mode; MCP 2025-11-25 client/elicitation) as our form,
 * and the form's answer as the result the server reads. The schema is the spec's restricted subset (the
 * SDK's PrimitiveSchemaDefinitionSchema in @modelcontextprotocol/sdk types.js: string with
 * minLength/maxLength/format, number|integer with minimum/maximum, boolean, `enum` (with legacy
 * `enumNames`), `oneOf` of `{const, title}`, and `type: array` of an `enum` or `anyOf` of `{const, title}`).
 * The SDK validates a request before our handler runs; this module still reads it as untrusted data (a
 * server is hostile until shown otherwise): unknown keys are ignored, a default that is not a valid value
 * is not pre-filled, and at most MAX_FIELDS fields are shown (a longer form is refused).
 */
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import {
  draftValue,
  type ElicitationAnswer,
  type ElicitationQuestion,
  type FieldOption,
  type FieldValue,
  type FormField,
  type StringFormat,
} from "../../kernel/run-events/elicitation.ts";

/** More fields than a terminal form can reasonably show: such a form is declined. */
export const MAX_FIELDS = 50;

const FORMATS: readonly string[] = ["email", "uri", "date", "date-time"];

type Schema = Record<string, unknown>;

/** The form a requested schema describes, or why it cannot be shown. */
export function formFields(requestedSchema: unknown): { fields: FormField[] } | { error: string } {
  const schema = asRecord(requestedSchema);
  const properties = asRecord(schema?.properties);
  if (schema === undefined || properties === undefined) return { error: "the form has no properties" };
  const names = Object.keys(properties);
  if (names.length > MAX_FIELDS)
    return { error: `the form has ${names.length} fields (at most ${MAX_FIELDS})` };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter(isString) : []);
  const fields: FormField[] = [];
  for (const name of names) {
    const field = fieldOf(name, asRecord(properties[name]) ?? {}, required.has(name));
    if (field === undefined) return { error: `field ${name} has a type the spec does not allow in a form` };
    fields.push(field);
  }
  return { fields };
}

function fieldOf(name: string, schema: Schema, required: boolean): FormField | undefined {
  const base = {
    name,
    label: isString(schema.title) && schema.title.trim() !== "" ? schema.title : name,
    ...(isString(schema.description) ? { description: schema.description } : {}),
    required,
  };
  const type = schema.type;
  if (type === "boolean") {
    return {
      ...base,
      kind: "boolean",
      ...(typeof schema.default === "boolean" ? { default: schema.default } : {}),
    };
  }
  if (type === "number" || type === "integer") {
    const field: FormField = {
      ...base,
      kind: "number",
      integer: type === "integer",
      ...numberKey(schema, "minimum"),
      ...numberKey(schema, "maximum"),
      ...numberKey(schema, "default"),
    };
    return withValidDefault(field);
  }
  if (type === "array") {
    const items = asRecord(schema.items) ?? {};
    const options = optionsOf(items.enum, undefined, items.anyOf);
    if (options === undefined) return undefined;
    const chosen = Array.isArray(schema.default) ? schema.default.filter(isString) : undefined;
    return withValidDefault({
      ...base,
      kind: "choices",
      options,
      ...numberKey(schema, "minItems"),
      ...numberKey(schema, "maxItems"),
      ...(chosen !== undefined ? { default: chosen } : {}),
    });
  }
  if (type !== "string") return undefined;
  const options = optionsOf(schema.enum, schema.enumNames, schema.oneOf);
  const fallback = isString(schema.default) ? { default: schema.default } : {};
  if (options !== undefined) return withValidDefault({ ...base, kind: "choice", options, ...fallback });
  const format = isString(schema.format) && FORMATS.includes(schema.format) ? schema.format : undefined;
  return withValidDefault({
    ...base,
    kind: "text",
    ...(format !== undefined ? { format: format as StringFormat } : {}),
    ...numberKey(schema, "minLength"),
    ...numberKey(schema, "maxLength"),
    ...fallback,
  });
}

/** The choices of an enum: plain `enum` (titled by `enumNames` when given), or `oneOf`/`anyOf` entries. */
function optionsOf(values: unknown, names: unknown, titled: unknown): FieldOption[] | undefined {
  if (Array.isArray(values)) {
    const labels = Array.isArray(names) ? names : [];
    return values
      .filter(isString)
      .map((value, i) => ({ value, label: isString(labels[i]) ? labels[i] : value }));
  }
  if (Array.isArray(titled)) {
    return titled
      .map(asRecord)
      .filter((o): o is Schema => o !== undefined && isString(o.const))
      .map((o) => ({ value: o.const as string, label: isString(o.title) ? o.title : (o.const as string) }));
  }
  return undefined;
}

/** A field whose default is not a value it accepts loses the default (nothing is pre-filled). */
function withValidDefault(field: FormField): FormField {
  if (field.default === undefined) return field;
  const draft = field.kind === "number" ? String(field.default) : field.default;
  if ("value" in draftValue({ ...field, required: true }, draft)) return field;
  const { default: _dropped, ...rest } = field;
  return rest as FormField;
}

/**
 * The result for the server: an accepted form's `content` holds each filled field's value (fields left
 * empty are omitted); a draft that does not check out refuses the whole answer (the form checks each
 * field before it lets the user accept, so this guards other askers).
 */
export function elicitResult(fields: readonly FormField[], answer: ElicitationAnswer): ElicitResult {
  if (answer.action !== "accept") return { action: answer.action };
  const content: Record<string, FieldValue> = {};
  for (const field of fields) {
    const checked = draftValue(field, answer.drafts[field.name]);
    if ("error" in checked) throw new Error(`elicitation answer: ${checked.error}`);
    if (checked.value !== undefined) content[field.name] = checked.value;
  }
  return { action: "accept", content };
}

/** The question a form-mode request puts to the user, or why it cannot be asked. */
export function elicitationQuestion(
  id: string,
  server: string,
  params: ElicitRequest["params"],
): { question: ElicitationQuestion } | { error: string } {
  if (params.mode === "url") return { error: "URL mode is not supported" };
  const form = formFields(params.requestedSchema);
  if ("error" in form) return form;
  return { question: { id, server, message: String(params.message ?? ""), fields: form.fields } };
}

function numberKey<K extends string>(schema: Schema, key: K): Partial<Record<K, number>> {
  const value = schema[key];
  return typeof value === "number" && Number.isFinite(value) ? ({ [key]: value } as Record<K, number>) : {};
}

function asRecord(value: unknown): Schema | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}
