/** Suite validation: every problem at its FILE:LINE with the field and what was expected; defaults apply. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatSuiteError, loadSuite, parseSuite } from "../../../src/cli/eval/suite/suite-load.ts";
import { KNOWN_FIELDS } from "../../../src/cli/eval/suite/suite-schema.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-suite-"));
mkdirSync(join(dir, "fixture"));
const file = join(dir, "suite.yaml");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function errorsOf(text: string): string[] {
  const loaded = parseSuite(text, file);
  if (!("errors" in loaded)) throw new Error("expected errors");
  return loaded.errors.map(formatSuiteError);
}

describe("parseSuite", () => {
  test("a valid suite resolves paths against the suite file and applies defaults", () => {
    const loaded = parseSuite(
      [
        "defaults:",
        "  model: anthropic:claude-haiku-5-5",
        "  allow: ['exec:make']",
        "  check_timeout: 5",
        "tasks:",
        "  - id: one",
        "    goal: do it",
        "    workspace: fixture",
        "    allow: ['edit_file:**']",
        "    checks: [make test, {run: 'true', name: ok, timeout: 2}]",
        "  - id: two",
        "    goal: other",
        "    workspace: {git: fixture, ref: main}",
        "    model: openai:gpt-5",
        "    sandbox: off",
      ].join("\n"),
      file,
    );
    if (!("suite" in loaded)) throw new Error(JSON.stringify(loaded.errors));
    const [one, two] = loaded.suite.tasks;
    expect(one).toMatchObject({
      id: "one",
      workspace: { kind: "folder", path: join(dir, "fixture") },
      model: "anthropic:claude-haiku-5-5",
      allow: ["exec:make", "edit_file:**"],
      sandbox: "workspace-write",
      onAsk: "deny",
      checks: [
        { name: "make test", run: "make test", timeoutS: 5 },
        { name: "ok", run: "true", timeoutS: 2 },
      ],
    });
    expect(two).toMatchObject({
      workspace: { kind: "git", repo: join(dir, "fixture"), ref: "main" },
      model: "openai:gpt-5",
      sandbox: "off",
    });
  });

  test("schema problems name the line, the field and what was expected", () => {
    const errors = errorsOf(
      [
        "name: bad", // 1
        "tasks:", // 2
        "  - id: one", // 3
        "    gaol: typo", // 4
        "    workspace: fixture", // 5
        "  - id: two", // 6
        "    goal: g", // 7
        "    workspace: [1]", // 8
        "    max_turns: -1", // 9
        "    sandbox: maybe", // 10
        "    checks: [{cmd: x}]", // 11
      ].join("\n"),
    );
    expect(errors).toContain(
      `${file}:4: tasks[0].gaol: unknown field; did you mean "goal"? expected one of: id, goal, workspace, checks, expect, schema, agent, model, max_turns, max_budget_usd, max_tokens, timeout, check_timeout, sandbox, allow, deny, on_ask, mcp_servers`,
    );
    expect(errors).toContain(`${file}:3: tasks[0].goal: missing; expected a string`);
    expect(errors).toContain(
      `${file}:8: tasks[1].workspace: expected a folder path, or {git: REPO, ref: REF}`,
    );
    expect(errors).toContain(`${file}:9: tasks[1].max_turns: expected a number > 0`);
    expect(errors).toContain(
      `${file}:10: tasks[1].sandbox: expected one of: workspace-write, read-only, off`,
    );
    expect(errors).toContain(
      `${file}:11: tasks[1].checks[0].cmd: unknown field; expected one of: run, name, timeout (tasks[1].checks[0] is a shell command, or {run: COMMAND, name?, timeout?})`,
    );
  });

  test("duplicate ids, missing fixtures and bad patterns are errors at their lines", () => {
    const errors = errorsOf(
      [
        "tasks:",
        "  - id: same",
        "    goal: g",
        "    workspace: fixture",
        "  - id: same",
        "    goal: g",
        "    workspace: nowhere",
        "    expect: {answer_matches: '('}",
      ].join("\n"),
    );
    expect(errors).toEqual([
      `${file}:5: tasks[1].id: "same" is already the id of tasks[0]; expected a unique id`,
      `${file}:7: tasks[1].workspace: nowhere is not a folder (resolved to ${join(dir, "nowhere")}); expected the fixture folder, relative to the suite file`,
      `${file}:8: tasks[1].expect.answer_matches: expected a valid regular expression`,
    ]);
  });

  test("schema problems and missing folders or duplicate ids are reported in one pass, by line", () => {
    const errors = errorsOf(
      [
        "tasks:",
        "  - id: one",
        "    goal: g",
        "    workspace: nowhere",
        "  - id: two",
        "    gaol: g",
        "    workspace: fixture",
        "  - id: one",
        "    goal: g",
        "    workspace: fixture",
      ].join("\n"),
    );
    expect(errors).toEqual([
      `${file}:4: tasks[0].workspace: nowhere is not a folder (resolved to ${join(dir, "nowhere")}); expected the fixture folder, relative to the suite file`,
      `${file}:5: tasks[1].goal: missing; expected a string`,
      `${file}:6: tasks[1].gaol: unknown field; did you mean "goal"? expected one of: ${KNOWN_FIELDS.task.join(", ")}`,
      `${file}:8: tasks[2].id: "one" is already the id of tasks[0]; expected a unique id`,
    ]);
  });

  test("invalid YAML and an empty task list", () => {
    expect(errorsOf("tasks: [\n")[0]).toMatch(new RegExp(`^${file}:\\d+: invalid YAML: `));
    expect(errorsOf("tasks: []\n")).toEqual([`${file}:1: tasks: expected at least 1 item`]);
  });

  test("a FIFO or a missing file is refused without blocking", async () => {
    const missing = await loadSuite(join(dir, "none.yaml"));
    expect("errors" in missing && missing.errors[0]?.message).toBe("no such file");
    const fifo = join(dir, "fifo.yaml");
    Bun.spawnSync(["mkfifo", fifo]);
    const refused = await loadSuite(fifo);
    expect("errors" in refused && refused.errors[0]?.message).toContain("not a regular file");
  });
});

test("loadSuite reads a suite from disk", async () => {
  writeFileSync(file, "tasks:\n  - {id: a, goal: g, workspace: fixture}\n");
  const loaded = await loadSuite(file);
  expect("suite" in loaded && loaded.suite.tasks.map((task) => task.id)).toEqual(["a"]);
});
