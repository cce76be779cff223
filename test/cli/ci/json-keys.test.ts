/**
 * The one JSON shape (docs/ci-and-json.md "Machine-readable output", schema 2), walked over real output of the CLI
 * run in the test process (../run/in-process.ts): `agent run -o stream-json` and `-o json` of a run with
 * reasoning, tools, approvals, a denial and a sub-agent with a `verify:` command, and of runs ending in a
 * provider error (`agent helper --json`: test/e2e/ci/json-keys.test.ts). Every key at every depth must be snake_case, except inside a tool call's arguments (`args` of tool_start and
 * approval requests, `arguments` of the tool calls in `message` events), which are the model's own and
 * passed on as it wrote them.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicEnv, freshServerAndSandbox, parseJsonLines, writeProjectSpec } from "../../e2e/support.ts";
import type { FakeTurn } from "../../support/fake-llm-server.ts";
import { nonSnakeKeys } from "../../support/json-shape.ts";
import { runInSandbox } from "../run/in-process.ts";

const fx = freshServerAndSandbox();

/** The event kinds the run below produces: docs/ci-and-json.md's list but model_switch, compaction and error. */
const EVENT_KINDS = [
  "system",
  "warning",
  "message",
  "plan_start",
  "reasoning_delta",
  "text_delta",
  "plan_end",
  "tool_start",
  "tool_output",
  "tool_end",
  "approval_request",
  "approval_decision",
  "verify",
  "learn_signal",
  "act_start",
  "act_end",
  "session_end",
  "result",
];

/** A model argument name that is not snake_case: it must reach the output unchanged. */
const MODEL_ARG = { path: "notes.txt", maxLines: 2 };

/**
 * In a project whose hooks are not trusted (a warning), `lead` thinks, then calls read_file with an argument of its own naming (`maxLines`, which the schema
 * does not know), exec (streams output), a denied exec and its sub-agent `checker`; checker writes a file
 * and answers, and its `verify:` command runs; lead answers.
 */
function writeSpecs(): void {
  writeProjectSpec(
    fx.sandbox,
    "lead.yaml",
    [
      "name: lead",
      "description: Leads.",
      "model: fast",
      "capabilities: [read_file, exec, checker]",
      "system_prompt: Lead.",
      "",
    ].join("\n"),
  );
  writeProjectSpec(
    fx.sandbox,
    "checker.yaml",
    [
      "name: checker",
      "description: Writes made.txt, then proves it exists.",
      "model: fast",
      "capabilities: [write_file]",
      "verify: ['test -f made.txt']",
      "system_prompt: Write it.",
      "",
    ].join("\n"),
  );
  writeFileSync(join(fx.sandbox.workspace, "notes.txt"), "some notes\n");
  // Hooks of an untrusted project are not run: a warning event says so.
  const hooks = "hooks:\n  on_stop:\n    - command: ./notify.sh\n";
  writeFileSync(join(fx.sandbox.workspace, ".agent", "config.yaml"), hooks);
}

function turns(): FakeTurn[] {
  return [
    {
      reasoning: ["Let me ", "think."],
      text: ["Working ", "on it."],
      toolCalls: [
        { name: "read_file", args: MODEL_ARG },
        { name: "exec", args: { command: "echo one; sleep 0.7; echo two" } },
        { name: "exec", args: { command: "rm -rf notes.txt" } },
      ],
      usage: { input: 100, output: 20, cacheRead: 50, cacheWrite: 10, reasoning: 5 },
    },
    { toolCalls: [{ name: "checker", args: { goal: "Write made.txt", hints: ["keep it short"] } }] },
    { toolCalls: [{ name: "write_file", args: { path: "made.txt", content: "made\n" } }] },
    { text: "Wrote it." },
    { text: "All done." },
  ];
}

function runLead(output: "json" | "stream-json") {
  writeSpecs();
  fx.server.enqueue(...turns());
  const args = ["run", "Do it", "--agent", "lead", "-o", output, "--on-ask", "allow"];
  return runInSandbox(fx.sandbox, [...args, "--deny", "exec:rm *"], anthropicEnv(fx.sandbox, fx.server));
}

describe("every key of the JSON output is snake_case", () => {
  test("agent run -o stream-json: every line, every event kind of a run with tools and a sub-agent", async () => {
    const result = await runLead("stream-json");
    expect(result.code).toBe(0);
    const lines = parseJsonLines(result.stdout);
    expect(nonSnakeKeys(lines)).toEqual([]);
    const kinds = new Set(lines.map((line) => line.type));
    for (const kind of EVENT_KINDS) expect(kinds).toContain(kind);
    // The model's argument names reach every event that carries them as the model wrote them.
    const withArgs = lines.filter((line) => JSON.stringify(line).includes('"path":"notes.txt"'));
    expect(withArgs.map((line) => line.type)).toEqual(["message", "tool_start"]);
    for (const line of withArgs) expect(JSON.stringify(line)).toContain('"maxLines":2');
  });

  test("agent run -o json, and a run that ends in a provider error", async () => {
    const result = await runLead("json");
    expect(result.code).toBe(0);
    expect(nonSnakeKeys(parseJsonLines(result.stdout))).toEqual([]);
    fx.server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const env = anthropicEnv(fx.sandbox, fx.server);
    const failed = await runInSandbox(fx.sandbox, ["run", "Do it", "-o", "stream-json"], env);
    expect(failed.code).toBe(4);
    const lines = parseJsonLines(failed.stdout);
    expect(lines.map((line) => line.type)).toContain("error");
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "error" });
    expect(nonSnakeKeys(lines)).toEqual([]);
  });
});
