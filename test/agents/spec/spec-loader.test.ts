import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  BOOTSTRAP_DIR,
  formatSpecError,
  loadSpecs,
  loadSpecTexts,
  parseSpecText,
} from "../../../src/agents/spec/spec-loader.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "agent-specs-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const valid = (name: string, extra = ""): string =>
  `name: ${name}\ndescription: does ${name} things\nsystem_prompt: you are ${name}\nmodel: fast\ncapabilities: [read_file]\n${extra}`;

describe("spec validation", () => {
  test("bootstrap specs load without errors and delegate as designed", async () => {
    const result = await loadSpecs({
      workspaceRoot: dir,
      sources: [{ dir: BOOTSTRAP_DIR, scope: "bootstrap" }],
    });
    expect(result.errors).toEqual([]);
    expect([...result.specs.keys()].sort()).toEqual(["code-editor", "code-reader", "command-runner", "root"]);
    expect(result.specs.get("root")?.capabilities).toEqual([
      "code-reader",
      "code-editor",
      "command-runner",
      "mcp:*",
    ]);
    expect(result.specs.get("root")?.model).toBe("best");
    expect(result.specs.get("code-editor")?.capabilities).toEqual([
      "read_file",
      "write_file",
      "edit_file",
      "exec",
      "grep",
      "glob",
    ]);
    expect(result.specs.get("code-reader")?.capabilities).toEqual(["read_file", "grep", "glob"]);
    expect(result.specs.get("command-runner")?.capabilities).toEqual(["exec", "read_file", "grep", "glob"]);
  });

  test("a wrong type names file, line and field, and what was expected", () => {
    const text = `name: broken\ndescription: d\nsystem_prompt: s\nconstraints:\n  max_turns: many\n`;
    const { errors, spec } = parseSpecText(text, "/x/broken.yaml");
    expect(spec).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: "/x/broken.yaml", line: 5, field: "constraints.max_turns" });
    expect(errors[0]?.message).toContain("expected a number");
    expect(formatSpecError(errors[0]!)).toStartWith("/x/broken.yaml:5: constraints.max_turns: ");
  });

  test("isolation: worktree is read; any other value names file, line, field and what is expected", () => {
    const ok = parseSpecText("name: a\ndescription: d\nsystem_prompt: s\nisolation: worktree\n", "a.yaml");
    expect(ok.errors).toEqual([]);
    expect(ok.spec?.isolation).toBe("worktree");
    const bad = parseSpecText("name: a\ndescription: d\nsystem_prompt: s\nisolation: sandbox\n", "/x/a.yaml");
    expect(bad.spec).toBeUndefined();
    expect(formatSpecError(bad.errors[0]!)).toBe(
      "/x/a.yaml:4: isolation: expected worktree, or no isolation field",
    );
  });

  test("a missing field and an unknown field are both reported", () => {
    const text = `name: a\nsystem_prompt: s\nmodle: fast\n`;
    const { errors } = parseSpecText(text, "a.yaml");
    const byField = Object.fromEntries(errors.map((e) => [e.field, e]));
    expect(byField.description?.message).toContain("missing");
    expect(byField.modle).toMatchObject({ line: 3 });
    expect(byField.modle?.message).toContain("unknown field");
  });

  test("budgets in constraints: typed, and a misspelt one lists the budget fields", () => {
    const ok = parseSpecText(
      "name: a\ndescription: d\nsystem_prompt: s\nconstraints: { max_tokens: 5000, max_cost_usd: 0.25 }\n",
      "a.yaml",
    );
    expect(ok.errors).toEqual([]);
    expect(ok.spec?.constraints).toMatchObject({ max_tokens: 5000, max_cost_usd: 0.25 });
    const bad = parseSpecText(
      "name: a\ndescription: d\nsystem_prompt: s\nconstraints:\n  max_tokens: 1.5\n  max_cost: 1\n",
      "a.yaml",
    );
    const byField = Object.fromEntries(bad.errors.map((e) => [e.field, e]));
    expect(byField["constraints.max_tokens"]).toMatchObject({ line: 5 });
    expect(byField["constraints.max_tokens"]?.message).toContain("a positive whole number of tokens");
    expect(byField["constraints.max_cost"]?.message).toContain("max_cost_usd");
  });

  test("invalid YAML names the line", () => {
    const { errors } = parseSpecText(`name: a\ndescription: [unclosed\n`, "y.yaml");
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]?.message).toContain("invalid YAML");
    expect(errors[0]?.line).toBeGreaterThanOrEqual(2);
  });

  test("an unknown capability is an error at its line, and the spec is not loaded", () => {
    const text = `name: a\ndescription: d\nsystem_prompt: s\ncapabilities:\n  - read_file\n  - reed_file\n`;
    const result = loadSpecTexts([{ file: "a.yaml", text }]);
    expect(result.specs.has("a")).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ file: "a.yaml", line: 6, field: "capabilities[1]" });
    expect(result.errors[0]?.message).toContain('"reed_file" names neither a primitive nor a known agent');
  });

  test("a capability naming another agent is valid; naming an invalid agent is an error", () => {
    const ok = loadSpecTexts([
      { file: "boss.yaml", text: valid("boss").replace("[read_file]", "[helper-a]") },
      { file: "helper-a.yaml", text: valid("helper-a") },
    ]);
    expect(ok.errors).toEqual([]);
    expect(ok.specs.get("boss")?.capabilities).toEqual(["helper-a"]);
    const bad = loadSpecTexts([
      { file: "boss.yaml", text: valid("boss").replace("[read_file]", "[helper-a]") },
      { file: "helper-a.yaml", text: valid("helper-a").replace("[read_file]", "[nope]") },
    ]);
    expect(bad.specs.size).toBe(0);
    expect(bad.errors.map((e) => e.file).sort()).toEqual(["boss.yaml", "helper-a.yaml"]);
  });
});

describe("search path", () => {
  test("a nearer spec overrides bootstrap by name; all file errors are returned", async () => {
    const project = path.join(dir, ".agent", "agents");
    await mkdir(project, { recursive: true });
    await writeFile(
      path.join(project, "code-reader.yaml"),
      valid("code-reader").replace("does code-reader", "PROJECT"),
    );
    await writeFile(path.join(project, "bad.yaml"), "name: bad\n");
    const result = await loadSpecs({ workspaceRoot: dir, env: { XDG_CONFIG_HOME: path.join(dir, "cfg") } });
    expect(result.specs.get("code-reader")?.description).toContain("PROJECT");
    expect(result.specs.get("code-reader")?.source.scope).toBe("project");
    expect(result.specs.get("root")?.source.scope).toBe("bootstrap");
    expect(result.errors.some((e) => e.file.endsWith("bad.yaml") && e.field === "description")).toBe(true);
  });

  test("the user config directory sits between project and bootstrap", async () => {
    const user = path.join(dir, "cfg", "agent", "agents");
    await mkdir(user, { recursive: true });
    await writeFile(path.join(user, "root.yaml"), valid("root").replace("does root", "USER"));
    const result = await loadSpecs({ workspaceRoot: dir, env: { XDG_CONFIG_HOME: path.join(dir, "cfg") } });
    expect(result.specs.get("root")?.description).toContain("USER");
    expect(result.specs.get("root")?.source.scope).toBe("user");
  });
});

describe("constraints", () => {
  test("an unknown constraint names its line and the allowed fields", () => {
    const { errors } = parseSpecText(
      `name: a\ndescription: d\nsystem_prompt: s\nconstraints:\n  max_turn: 3\n`,
      "c.yaml",
    );
    expect(errors).toEqual([
      {
        file: "c.yaml",
        line: 5,
        field: "constraints.max_turn",
        agent: "a",
        message: expect.stringContaining("max_turns, max_depth, timeout_ms, can_spawn, can_learn"),
      },
    ]);
  });

  test("naming an agent while can_spawn is false is an error, not a silent drop", () => {
    const result = loadSpecTexts([
      {
        file: "boss.yaml",
        text: `${valid("boss").replace("[read_file]", "[helper-a]")}constraints:\n  can_spawn: false\n`,
      },
      { file: "helper-a.yaml", text: valid("helper-a") },
    ]);
    expect(result.specs.has("boss")).toBe(false);
    expect(result.errors[0]).toMatchObject({ file: "boss.yaml", line: 5, field: "capabilities[0]" });
    expect(result.errors[0]?.message).toContain("can_spawn is false");
  });

  test("defaults fill what a spec leaves out", () => {
    const { spec } = parseSpecText(`name: a\ndescription: d\nsystem_prompt: s\n`, "d.yaml");
    expect(spec).toMatchObject({
      model: "good",
      capabilities: [],
      tags: [],
      version: "1",
      constraints: { max_turns: 30, max_depth: 3, can_spawn: true, can_learn: false },
    });
  });
});
