/**
 * Budgets a user sets (`--max-budget-usd`, `--max-tokens`, config defaults, spec constraints) and
 * `agent run --schema`, without a terminal against the fake Anthropic endpoint, in the test process
 * (../run/in-process.ts). `agent helper`'s budgets: test/e2e/ci/budgets-schema.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, writeProjectSpec } from "../../e2e/support.ts";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import { runInSandbox } from "../run/in-process.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

async function run(args: string[], env = anthropicEnv(sandbox, server)) {
  const first = server.requests.length;
  const result = await runInSandbox(sandbox, args, env);
  return { ...result, requests: server.requests.slice(first) };
}

function writeConfig(text: string): void {
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(join(sandbox.configDir, "agent", "config.yaml"), text);
}

/** The root thinks aloud and delegates: 1000 input + 100 output tokens, about $0.015 on the best tier. */
const SPENDING_TURN: FakeTurn = {
  text: "Looking at the files first.",
  toolCalls: [{ name: "code-reader", args: { goal: "list the files" } }],
  usage: { input: 1000, output: 100 },
};

describe("budgets", () => {
  test("--max-budget-usd ends the run with exit 5, finish_reason budget and the partial answer; the child under it never calls the model", async () => {
    server.enqueue(SPENDING_TURN);
    const result = await run(["run", "--max-budget-usd", "0.01", "--output", "json", "inspect the files"]);
    expect(result.code).toBe(5);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({
      status: "limit",
      finish_reason: "budget",
      answer: "Looking at the files first.",
      exit_code: 5,
    });
    expect(record.usage.cost_usd).toBeGreaterThanOrEqual(0.01);
    // The root's budget bounds its subtree: the delegated code-reader stopped before its first call.
    expect(result.requests).toHaveLength(1);
    expect(result.stderr).toContain("cost budget of $0.01 spent");
  });

  test("text output prints the partial answer alone on stdout", async () => {
    server.enqueue(SPENDING_TURN);
    const result = await run(["run", "--max-tokens", "500", "inspect the files"]);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe("Looking at the files first.\n");
  });

  test("config defaults.max_tokens bounds a run when no flag does", async () => {
    writeConfig("defaults:\n  max_tokens: 500\n");
    server.enqueue(SPENDING_TURN);
    const result = await run(["run", "--output", "json", "inspect the files"]);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout).finish_reason).toBe("budget");
  });

  const badFlags = [
    { args: ["--max-budget-usd", "lots"], says: '--max-budget-usd expects a positive number, got "lots"' },
    { args: ["--max-budget-usd", "-1"], says: "--max-budget-usd expects a positive number" },
    { args: ["--max-tokens", "1.5"], says: '--max-tokens expects a positive whole number, got "1.5"' },
  ];
  // helper's: test/e2e/ci/budgets-schema.test.ts (the helper command has no in-process entry yet).
  for (const command of ["run"]) {
    for (const bad of badFlags) {
      test(`${command} ${bad.args.join(" ")}: exit 2 naming the flag`, async () => {
        const result = await run([command, ...bad.args, "goal"]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(bad.says);
        expect(result.requests).toHaveLength(0);
      });
    }
  }

  test("a bad config default exits 3 naming the field", async () => {
    writeConfig("defaults:\n  max_budget_usd: -2\n");
    const result = await run(["run", "goal"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      "line 2: defaults.max_budget_usd: expected max_budget_usd: a positive number",
    );
  });

  test("a bad spec budget exits 3 naming file, line and field", async () => {
    writeProjectSpec(
      sandbox,
      "root.yaml",
      "name: root\ndescription: top\nsystem_prompt: hi\nconstraints:\n  max_cost_usd: -1\n",
    );
    const result = await run(["run", "goal"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      "root.yaml:5: constraints.max_cost_usd: expected a positive number of US dollars",
    );
  });
});

describe("agent run --schema", () => {
  const SCHEMA = JSON.stringify({
    type: "object",
    properties: { files: { type: "integer" } },
    required: ["files"],
  });

  test("the final answer is the JSON alone; the schema reaches every request of the top agent", async () => {
    server.enqueue({ text: '{"files": 2}' });
    const result = await run(["run", "--schema", SCHEMA, "count the files"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('{"files":2}\n');
    const body = result.requests[0]?.body as { output_config?: { format?: unknown }; tools?: unknown[] };
    expect(body.tools?.length).toBeGreaterThan(0);
    expect(body.output_config?.format).toMatchObject({
      type: "json_schema",
      schema: { additionalProperties: false },
    });
  });

  test("an answer that still does not match after one re-ask exits 1 with the validation error", async () => {
    server.enqueue({ text: "There are two files." }, { text: '{"files": "two"}' });
    const result = await run(["run", "--schema", SCHEMA, "--output", "json", "count the files"]);
    expect(result.code).toBe(1);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({
      status: "failure",
      finish_reason: "invalid_output",
      answer: "",
      exit_code: 1,
    });
    expect(record.error.kind).toBe("schema");
    expect(record.error.message).toContain("answer/files must be integer");
    expect(result.requests).toHaveLength(2);
  });
});
