/**
 * `agent helper --json` keeps the error contract of docs/ci-and-json.md: an error result (a provider
 * error) has no `answer`, and a `--replay` cassette that does not fit the run (here one that runs out,
 * even with `--replay-loose`) is a usage error, exit 2, printed once on stderr.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

function anthropicEnv(): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-cli-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });
}

describe("agent helper --json error results", () => {
  test("a provider error: exit 4 and no answer", async () => {
    fx.server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const result = await runAgent(["helper", "--json", "hi"], { env: anthropicEnv() });
    expect(result.code).toBe(4);
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(output).toMatchObject({ status: "error", exit_code: 4 });
    expect("answer" in output).toBe(false);
  });

  test("a cassette that runs out, --replay-loose: exit 2, kind usage, no answer, the message once", async () => {
    fx.server.enqueue({ text: "Hello.", usage: { input: 1000, output: 200 } });
    const cassette = join(fx.sandbox.dir, "helper.cassette.jsonl");
    const recorded = await runAgent(["helper", "--record", cassette, "Say hello"], { env: anthropicEnv() });
    expect(recorded.code).toBe(0);
    // Keep the header only: the helper's one request is past the cassette's end.
    writeFileSync(cassette, `${readFileSync(cassette, "utf8").split("\n")[0]}\n`);
    const result = await runAgent(["helper", "--json", "--replay", cassette, "--replay-loose", "Say hello"], {
      env: fx.sandbox.env(),
    });
    expect(result.code).toBe(2);
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(output).toMatchObject({ status: "error", exit_code: 2, error: { kind: "usage" } });
    expect("answer" in output).toBe(false);
    expect(result.stderr.split("holds 0 turns and the run asked for turn 1")).toHaveLength(2);
  });
});
