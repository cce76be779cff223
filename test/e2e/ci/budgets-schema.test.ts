/**
 * Budgets of `agent helper` (`--max-tokens`, bad budget flags) as bin/agent without a terminal against
 * the fake Anthropic endpoint: the helper command has no in-process entry yet. `agent run`'s budgets and
 * `--schema`: test/cli/ci/budgets-schema.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

async function run(args: string[], env = anthropicEnv(sandbox, server)) {
  const first = server.requests.length;
  const result = await runAgentIn(sandbox, args, env);
  return { ...result, requests: server.requests.slice(first) };
}

describe("budgets", () => {
  test("helper --tools --max-tokens stops with exit 5 and prints the partial answer", async () => {
    writeFileSync(join(sandbox.workspace, "a.txt"), "a\n");
    server.enqueue({
      text: "Reading a.txt.",
      toolCalls: [{ name: "read_file", args: { path: "a.txt" } }],
      usage: { input: 800, output: 50 },
    });
    const result = await run(["helper", "--tools", "read_file", "--max-tokens", "500", "What is in a.txt?"]);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe("Reading a.txt.\n");
    expect(result.stderr).toContain("budget (500 tokens) was spent");
  });

  const badFlags = [
    { args: ["--max-budget-usd", "lots"], says: '--max-budget-usd expects a positive number, got "lots"' },
    { args: ["--max-budget-usd", "-1"], says: "--max-budget-usd expects a positive number" },
    { args: ["--max-tokens", "1.5"], says: '--max-tokens expects a positive whole number, got "1.5"' },
  ];
  // run's: test/cli/ci/budgets-schema.test.ts.
  for (const command of ["helper"]) {
    for (const bad of badFlags) {
      test(`${command} ${bad.args.join(" ")}: exit 2 naming the flag`, async () => {
        const result = await run([command, ...bad.args, "goal"]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(bad.says);
        expect(result.requests).toHaveLength(0);
      });
    }
  }
});
