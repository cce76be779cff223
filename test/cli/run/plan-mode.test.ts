/**
 * `agent run --plan` from the user's side (in the test process, the model scripted on the fake server): the
 * model is offered only read-only tools, a write it tries anyway changes nothing (every file's bytes are
 * hashed before and after, even under `--on-ask allow`), and the answer is the plan: text on stdout, the
 * structured `plan` in the JSON result, a `plan` record in the transcript.
 */
import { expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { inProcessFixture } from "./in-process.ts";

const fixture = inProcessFixture();
const TEST_TIMEOUT_MS = 60_000;

const PLAN = {
  summary: "Add a farewell function next to greet.",
  steps: ["Add farewell(name) to greet.js", "Run the tests"],
  files: ["greet.js"],
  commands: ["npm test"],
};

/** Every file under `dir` (recursively) with the SHA-256 of its bytes. */
function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

/** The names of the tools request `index` offered the model. */
function toolsOffered(requests: { body: unknown }[], index: number): string[] {
  const body = requests[index]?.body as { tools?: { name?: string }[] } | undefined;
  return (body?.tools ?? []).map((tool) => tool.name ?? "");
}

function scriptPlanRun(): void {
  const { server, sandbox } = fixture;
  writeFileSync(join(sandbox.workspace, "greet.js"), 'export const greet = (n) => "hi " + n;\n');
  mkdirSync(join(sandbox.workspace, "src"));
  writeFileSync(join(sandbox.workspace, "src", "keep.txt"), "unchanged\n");
  server.enqueue(
    { toolCalls: [{ name: "read_file", args: { path: "greet.js" } }] },
    // A model that tries to write in plan mode anyway: the tool is not there.
    { toolCalls: [{ name: "write_file", args: { path: "greet.js", content: "clobbered" } }] },
    { toolCalls: [{ name: "exec", args: { command: "touch made-by-exec" } }] },
    { text: JSON.stringify(PLAN) },
  );
}

test(
  "--plan -o json under --on-ask allow offers only read-only tools, changes no byte, and returns the plan",
  async () => {
    scriptPlanRun();
    const before = hashTree(fixture.sandbox.workspace);
    const result = await fixture.run([
      "run",
      "--plan",
      "--agent",
      "code-editor",
      "--on-ask",
      "allow",
      "-o",
      "json",
      "add farewell",
    ]);
    expect(result.code).toBe(0);
    expect(hashTree(fixture.sandbox.workspace)).toEqual(before);
    const offered = toolsOffered(result.requests, 0);
    expect(offered).toContain("read_file");
    for (const name of ["write_file", "edit_file", "apply_patch", "exec"])
      expect(offered).not.toContain(name);
    const json = JSON.parse(result.stdout);
    expect(json.status).toBe("success");
    expect(json.plan).toEqual(PLAN);
    expect(json.answer).toContain("Add farewell(name) to greet.js");
    // The plan is a structured record in the transcript.
    const sessions = fixture.sandbox.sessionsDir;
    const lines = readdirSync(sessions, { recursive: true })
      .map(String)
      .filter((name) => name.endsWith(".jsonl"))
      .flatMap((name) => readFileSync(join(sessions, name), "utf8").trim().split("\n"));
    const records = lines.map((line) => JSON.parse(line)).filter((event) => event.kind === "plan");
    expect(records.map((event) => event.data.plan)).toEqual([PLAN]);
  },
  TEST_TIMEOUT_MS,
);

test(
  "--plan in text mode prints the plan as the answer and exits 0",
  async () => {
    scriptPlanRun();
    const before = hashTree(fixture.sandbox.workspace);
    const result = await fixture.run(["run", "--plan", "add farewell"]);
    expect(result.code).toBe(0);
    expect(hashTree(fixture.sandbox.workspace)).toEqual(before);
    expect(result.stdout).toContain("Plan: Add a farewell function next to greet.");
    expect(result.stdout).toContain("1. Add farewell(name) to greet.js");
    expect(result.stdout).toContain("- npm test");
  },
  TEST_TIMEOUT_MS,
);

test(
  "a sub-agent inherits plan mode: the root's code-editor is offered no write, edit or exec, and writes nothing",
  async () => {
    const { server, sandbox } = fixture;
    writeFileSync(join(sandbox.workspace, "greet.js"), "original\n");
    server.enqueue(
      { toolCalls: [{ name: "code-editor", args: { goal: "write greet.js" } }] },
      { toolCalls: [{ name: "write_file", args: { path: "greet.js", content: "clobbered" } }] },
      { text: "I could not write." },
      { text: JSON.stringify(PLAN) },
    );
    const before = hashTree(sandbox.workspace);
    const result = await fixture.run(["run", "--plan", "--on-ask", "allow", "-o", "json", "add farewell"]);
    expect(result.code).toBe(0);
    expect(hashTree(sandbox.workspace)).toEqual(before);
    const child = toolsOffered(result.requests, 1);
    expect(child).toContain("read_file");
    for (const name of ["write_file", "edit_file", "exec"]) expect(child).not.toContain(name);
    expect(JSON.parse(result.stdout).plan).toEqual(PLAN);
  },
  TEST_TIMEOUT_MS,
);

test(
  "--plan with --schema is a usage error (exit 2)",
  async () => {
    const result = await fixture.run(["run", "--plan", "--schema", '{"type":"object"}', "x"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--plan");
  },
  TEST_TIMEOUT_MS,
);
