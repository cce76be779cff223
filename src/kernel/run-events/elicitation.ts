/**
 * A server's question with a form (MCP elicitation, form mode), as the user is asked it: the fields the
 * requested schema allows (MCP 2025-11-25, client/elicitation "Requested Schema": flat, primitive
 * properties only: string with `format` email/uri/date/date-time and min/max length, number or integer
 * with minimum/maximum, boolean, single-select enum (`enum`, or `oneOf` with `const`/`title`) and
 * multi-select enum (`type: array`)), each pre-filled with its schema `default` (SEP-1034: "Clients that
 * support defaults SHOULD pre-populate form fields with these values"), and how an edited value is
 * checked. Shared by the MCP client (src/tools/mcp/elicitation-form.ts) and the terminal form (src/ui).
 */

/** What every field has. */
interface FieldBase {
  /** The property name the answer is sent under. */
  name: string;
  /** What the form shows: the schema's `title`, else the property name. */
  label: string;
  description?: string;
  required: boolean;
}

/** A choice of an enum field: the value sent, and the title shown. */
export interface FieldOption {
  value: string;
  label: string;
}

export type StringFormat = "email" | "uri" | "date" | "date-time";

/** One field of a form. */
export type FormField =
  | (FieldBase & {
      kind: "text";
      format?: StringFormat;
      minLength?: number;
      maxLength?: number;
      default?: string;
    })
  | (FieldBase & { kind: "number"; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean })
  | (FieldBase & { kind: "choice"; options: FieldOption[]; default?: string })
  | (FieldBase & {
      kind: "choices";
      options: FieldOption[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    });

/** A value as it is sent (the `content` of an accepted elicitation). */
export type FieldValue = string | number | boolean | string[];

/**
 * A field as the form edits it: text and numbers as the typed text, a boolean as itself, a choice as the
 * chosen value ("" none), choices as the chosen values.
 */
export type FieldDraft = string | boolean | string[];

/** A server's form put to the user. Matched by id, like an approval request. */
export interface ElicitationQuestion {
  id: string;
  /** The MCP server asking (the spec: clients MUST make clear which server is requesting information). */
  server: string;
  /** The server's message explaining what it asks and why. */
  message: string;
  fields: FormField[];
}

/**
 * The user's answer, as the MCP spec's three actions: accept (with the edited drafts), decline (an
 * explicit no), cancel (dismissed without a choice: the run was interrupted or ended).
 */
export type ElicitationAnswer =
  | { action: "accept"; drafts: Record<string, FieldDraft> }
  | { action: "decline" }
  | { action: "cancel" };

/** The form as it first shows: every field with its schema default (SEP-1034), else empty. */
export function initialDrafts(fields: readonly FormField[]): Record<string, FieldDraft> {
  const drafts: Record<string, FieldDraft> = {};
  for (const field of fields) drafts[field.name] = initialDraft(field);
  return drafts;
}

function initialDraft(field: FormField): FieldDraft {
  switch (field.kind) {
    case "text":
      return field.default ?? "";
    case "number":
      return field.default === undefined ? "" : String(field.default);
    case "boolean":
      return field.default ?? false;
    case "choice":
      return field.default ?? "";
    case "choices":
      return [...(field.default ?? [])];
  }
}

/**
 * The value a draft stands for, checked against its field: `{ value }` (undefined: left empty, not sent),
 * or `{ error }` saying what is wrong in words a person can act on.
 */
export function draftValue(
  field: FormField,
  draft: FieldDraft | undefined,
): { value: FieldValue | undefined } | { error: string } {
  const empty =
    draft === undefined || draft === "" || (Array.isArray(draft) && draft.length === 0 && field.required);
  if (empty && field.kind !== "boolean") {
    return field.required ? { error: `${field.label} is required` } : { value: undefined };
  }
  switch (field.kind) {
    case "text":
      return textValue(field, String(draft));
    case "number":
      return numberValue(field, String(draft).trim());
    case "boolean":
      return { value: draft === true };
    case "choice": {
      const chosen = String(draft);
      if (field.options.some((o) => o.value === chosen)) return { value: chosen };
      return { error: `${field.label} must be one of ${field.options.map((o) => o.value).join(", ")}` };
    }
    case "choices": {
      const chosen = Array.isArray(draft) ? draft : [];
      const unknown = chosen.find((value) => !field.options.some((o) => o.value === value));
      if (unknown !== undefined) return { error: `${field.label}: "${unknown}" is not one of the choices` };
      if (field.minItems !== undefined && chosen.length < field.minItems)
        return { error: `${field.label}: choose at least ${field.minItems}` };
      if (field.maxItems !== undefined && chosen.length > field.maxItems)
        return { error: `${field.label}: choose at most ${field.maxItems}` };
      return { value: [...chosen] };
    }
  }
}

function textValue(
  field: Extract<FormField, { kind: "text" }>,
  text: string,
): { value: string } | { error: string } {
  const length = [...text].length;
  if (field.minLength !== undefined && length < field.minLength)
    return { error: `${field.label} needs at least ${field.minLength} characters` };
  if (field.maxLength !== undefined && length > field.maxLength)
    return { error: `${field.label} takes at most ${field.maxLength} characters` };
  if (field.format !== undefined && !FORMAT_CHECKS[field.format](text))
    return { error: `${field.label} must be ${FORMAT_WORDS[field.format]}` };
  return { value: text };
}

function numberValue(
  field: Extract<FormField, { kind: "number" }>,
  text: string,
): { value: number } | { error: string } {
  const value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value)) return { error: `${field.label} must be a number` };
  if (field.integer && !Number.isInteger(value)) return { error: `${field.label} must be a whole number` };
  if (field.minimum !== undefined && value < field.minimum)
    return { error: `${field.label} must be at least ${field.minimum}` };
  if (field.maximum !== undefined && value > field.maximum)
    return { error: `${field.label} must be at most ${field.maximum}` };
  return { value };
}

const FORMAT_WORDS: Record<StringFormat, string> = {
  email: "an email address",
  uri: "a URI (scheme:…)",
  date: "a date (YYYY-MM-DD)",
  "date-time": "a date and time (YYYY-MM-DDTHH:MM:SSZ)",
};

/** Loose checks of the four formats the spec allows; the server validates again (spec: "Form Mode Security"). */
const FORMAT_CHECKS: Record<StringFormat, (text: string) => boolean> = {
  email: (text) => /^[^\s@]+@[^\s@]+$/.test(text),
  uri: (text) => /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(text),
  date: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)),
  "date-time": (text) =>
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/.test(text) &&
    !Number.isNaN(Date.parse(text)),
};
