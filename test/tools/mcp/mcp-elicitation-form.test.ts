/**
 * A server's form (MCP 2025-11-25 client/elicitation, "Requested Schema") as our fields, pre-filled with
 * the schema defaults (SEP-1034), and the edited drafts back as the result's `content`.
 */
import { describe, expect, test } from "bun:test";
import { draftValue, type FormField, initialDrafts } from "../../../src/kernel/run-events/elicitation.ts";
import {
  elicitationQuestion,
  elicitResult,
  formFields,
  MAX_FIELDS,
} from "../../../src/tools/mcp/elicitation-form.ts";

/** One property of each type the spec allows. */
const SPEC_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", title: "Display Name", minLength: 3, maxLength: 50, default: "octocat" },
    email: { type: "string", format: "email", description: "Your email address" },
    age: { type: "integer", minimum: 18, maximum: 120, default: 30 },
    score: { type: "number", default: 95.5 },
    verified: { type: "boolean", default: true },
    color: { type: "string", enum: ["Red", "Green", "Blue"], default: "Red" },
    hex: {
      type: "string",
      oneOf: [
        { const: "#FF0000", title: "Red" },
        { const: "#00FF00", title: "Green" },
      ],
      default: "#00FF00",
    },
    pet: { type: "string", enum: ["pet-1", "pet-2"], enumNames: ["Cats", "Dogs"] },
    colors: {
      type: "array",
      minItems: 1,
      maxItems: 2,
      items: { type: "string", enum: ["Red", "Green", "Blue"] },
      default: ["Red", "Green"],
    },
    fish: {
      type: "array",
      items: { anyOf: [{ const: "fish-1", title: "Tuna" }] },
    },
  },
  required: ["name", "email"],
};

function fieldsOf(schema: unknown): FormField[] {
  const form = formFields(schema);
  if ("error" in form) throw new Error(form.error);
  return form.fields;
}

describe("form fields from a requested schema", () => {
  test("each spec type becomes a field with its label, bounds, choices and required flag", () => {
    const fields = fieldsOf(SPEC_SCHEMA);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["name", "text", true],
      ["email", "text", true],
      ["age", "number", false],
      ["score", "number", false],
      ["verified", "boolean", false],
      ["color", "choice", false],
      ["hex", "choice", false],
      ["pet", "choice", false],
      ["colors", "choices", false],
      ["fish", "choices", false],
    ]);
    expect(fields[0]).toMatchObject({ label: "Display Name", minLength: 3, maxLength: 50 });
    expect(fields[1]).toMatchObject({ label: "email", format: "email", description: "Your email address" });
    expect(fields[2]).toMatchObject({ integer: true, minimum: 18, maximum: 120 });
    expect(fields[6]).toMatchObject({
      options: [
        { value: "#FF0000", label: "Red" },
        { value: "#00FF00", label: "Green" },
      ],
    });
    expect(fields[7]).toMatchObject({
      options: [
        { value: "pet-1", label: "Cats" },
        { value: "pet-2", label: "Dogs" },
      ],
    });
    expect(fields[9]).toMatchObject({ options: [{ value: "fish-1", label: "Tuna" }] });
  });

  test("SEP-1034: the form is pre-filled with every default, and accepting it sends them typed", () => {
    const fields = fieldsOf(SPEC_SCHEMA);
    const drafts = initialDrafts(fields);
    expect(drafts).toEqual({
      name: "octocat",
      email: "",
      age: "30",
      score: "95.5",
      verified: true,
      color: "Red",
      hex: "#00FF00",
      pet: "",
      colors: ["Red", "Green"],
      fish: [],
    });
    const result = elicitResult(fields, { action: "accept", drafts: { ...drafts, email: "me@example.com" } });
    expect(result).toEqual({
      action: "accept",
      content: {
        name: "octocat",
        email: "me@example.com",
        age: 30,
        score: 95.5,
        verified: true,
        color: "Red",
        hex: "#00FF00",
        colors: ["Red", "Green"],
        fish: [],
      },
    });
  });

  test("decline and cancel carry no content", () => {
    const fields = fieldsOf(SPEC_SCHEMA);
    expect(elicitResult(fields, { action: "decline" })).toEqual({ action: "decline" });
    expect(elicitResult(fields, { action: "cancel" })).toEqual({ action: "cancel" });
  });

  test("a default that is not a valid value is not pre-filled", () => {
    const fields = fieldsOf({
      type: "object",
      properties: {
        status: { type: "string", enum: ["a", "b"], default: "c" },
        n: { type: "integer", minimum: 1, default: 0 },
        when: { type: "string", format: "date", default: "yesterday" },
      },
    });
    expect(initialDrafts(fields)).toEqual({ status: "", n: "", when: "" });
  });

  test("a form the spec does not allow, or too long to show, is refused with the reason", () => {
    expect(formFields({ type: "object", properties: { o: { type: "object" } } })).toEqual({
      error: "field o has a type the spec does not allow in a form",
    });
    expect(formFields("nothing")).toEqual({ error: "the form has no properties" });
    const many = Object.fromEntries(
      Array.from({ length: MAX_FIELDS + 1 }, (_, i) => [`f${i}`, { type: "boolean" }]),
    );
    expect(formFields({ type: "object", properties: many })).toEqual({
      error: `the form has ${MAX_FIELDS + 1} fields (at most ${MAX_FIELDS})`,
    });
    expect(
      elicitationQuestion("1", "srv", {
        mode: "url",
        message: "m",
        url: "https://x.test",
        elicitationId: "e",
      }),
    ).toEqual({ error: "URL mode is not supported" });
  });
});

describe("checking what the user typed", () => {
  const [name, email, age, , verified, color, , , colors] = fieldsOf(SPEC_SCHEMA) as FormField[];

  test("text: required, lengths and formats, each named", () => {
    expect(draftValue(name!, "")).toEqual({ error: "Display Name is required" });
    expect(draftValue(name!, "ab")).toEqual({ error: "Display Name needs at least 3 characters" });
    expect(draftValue(email!, "not-an-address")).toEqual({ error: "email must be an email address" });
    expect(draftValue(email!, "a@b.c")).toEqual({ value: "a@b.c" });
  });

  test("numbers: parsed from the typed text, whole for integers, inside the bounds; empty optional is omitted", () => {
    expect(draftValue(age!, "42")).toEqual({ value: 42 });
    expect(draftValue(age!, "4.5")).toEqual({ error: "age must be a whole number" });
    expect(draftValue(age!, "12")).toEqual({ error: "age must be at least 18" });
    expect(draftValue(age!, "12abc")).toEqual({ error: "age must be a number" });
    expect(draftValue(age!, "")).toEqual({ value: undefined });
  });

  test("booleans, choices and multiple choices", () => {
    expect(draftValue(verified!, false)).toEqual({ value: false });
    expect(draftValue(color!, "Purple")).toEqual({ error: "color must be one of Red, Green, Blue" });
    expect(draftValue(colors!, ["Red", "Green", "Blue"])).toEqual({ error: "colors: choose at most 2" });
    expect(draftValue(colors!, ["Blue"])).toEqual({ value: ["Blue"] });
  });

  test("an accepted answer that does not check out is refused, not sent", () => {
    const fields = fieldsOf(SPEC_SCHEMA);
    expect(() => elicitResult(fields, { action: "accept", drafts: initialDrafts(fields) })).toThrow(
      "elicitation answer: email is required",
    );
  });
});
