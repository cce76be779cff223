import { describe, expect, test } from "bun:test";
import { modelFamily } from "../../src/kernel/index.ts";
import {
  createPrimitives,
  isPrimitiveName,
  PRIMITIVES,
  toolDefinitionsFor,
} from "../../src/tools/registry.ts";
import { PRIMITIVE_NAMES } from "../../src/tools/types.ts";

describe("registry", () => {
  test("every primitive name has a primitive of that name with an object schema", () => {
    for (const name of PRIMITIVE_NAMES) {
      const primitive = PRIMITIVES[name];
      expect(primitive.name).toBe(name);
      expect(primitive.description.length).toBeGreaterThan(20);
      expect(primitive.parameters.type).toBe("object");
      expect(primitive.parameters.$schema).toBeUndefined();
    }
    expect(Object.keys(createPrimitives()).sort()).toEqual([...PRIMITIVE_NAMES].sort());
  });

  test("the argument names are DESIGN's", () => {
    const props = (name: keyof typeof PRIMITIVES) =>
      Object.keys(PRIMITIVES[name].parameters.properties ?? {});
    expect(props("read_file")).toEqual(["path", "offset", "limit"]);
    expect(props("write_file")).toEqual(["path", "content"]);
    expect(props("edit_file")).toEqual(["path", "old_string", "new_string", "replace_all"]);
    expect(props("apply_patch")).toEqual(["patch"]);
    expect(props("exec")).toEqual(["command", "timeout_ms"]);
    expect(props("grep")).toEqual(["pattern", "path", "glob"]);
    expect(props("glob")).toEqual(["pattern", "path"]);
    expect(props("fetch")).toEqual(["url"]);
  });

  test("read-only primitives are the ones that change nothing", () => {
    const readOnly = PRIMITIVE_NAMES.filter((n) => PRIMITIVES[n].readOnly).sort();
    expect(readOnly).toEqual(["fetch", "glob", "grep", "read_file"]);
  });

  test("isPrimitiveName", () => {
    expect(isPrimitiveName("exec")).toBe(true);
    expect(isPrimitiveName("bash")).toBe(false);
    expect(isPrimitiveName("toString")).toBe(false);
  });

  test("on OpenAI GPT models, edit_file is offered as apply_patch", () => {
    const { definitions, primitives } = toolDefinitionsFor(["read_file", "edit_file", "exec"], "gpt");
    expect(definitions.map((d) => d.name)).toEqual(["read_file", "apply_patch", "exec"]);
    expect(primitives.get("apply_patch")).toBe(PRIMITIVES.apply_patch);
    expect(primitives.has("edit_file")).toBe(false);
  });

  test("every other family (local models on an OpenAI-compatible server too) gets edit_file", () => {
    for (const family of ["claude", "gemini", "open"] as const) {
      const { definitions, primitives } = toolDefinitionsFor(["apply_patch", "grep"], family);
      expect(definitions.map((d) => d.name)).toEqual(["edit_file", "grep"]);
      expect(primitives.get("edit_file")).toBe(PRIMITIVES.edit_file);
    }
  });

  test("the family comes from the endpoint, not the wire: a local model on an OpenAI-compatible server gets edit_file", () => {
    const ollama = modelFamily({ provider: "openai", providerName: "ollama" });
    const official = modelFamily({ provider: "openai", providerName: "openai" });
    expect([ollama, official]).toEqual(["open", "gpt"]);
    expect(toolDefinitionsFor(["edit_file"], ollama).definitions.map((d) => d.name)).toEqual(["edit_file"]);
    expect(toolDefinitionsFor(["edit_file"], official).definitions.map((d) => d.name)).toEqual([
      "apply_patch",
    ]);
  });

  test("asking for both yields one tool", () => {
    expect(toolDefinitionsFor(["edit_file", "apply_patch"], "gpt").definitions.map((d) => d.name)).toEqual([
      "apply_patch",
    ]);
    expect(toolDefinitionsFor(["apply_patch", "edit_file"], "claude").definitions.map((d) => d.name)).toEqual(
      ["edit_file"],
    );
  });

  test("definitions carry the primitive's description and schema", () => {
    const [definition] = toolDefinitionsFor(["fetch"], "claude").definitions;
    expect(definition).toEqual({
      name: "fetch",
      description: PRIMITIVES.fetch.description,
      parameters: PRIMITIVES.fetch.parameters,
    });
  });
});
