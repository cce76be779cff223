/**
 * `--replay` compares each request with the recorded one: a cassette recorded for another goal or
 * model exits 2 naming the first difference (one JSON error object in JSON mode) unless
 * `--replay-loose`; a replayed run costs 0 and reports the recorded cost apart. The cassette is
 * recorded through the fake server first, as a user would with a real key.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { expectJsonShape } from "../../support/json-shape.ts";
import { anthropicEnv, type E2eSandbox, makeE2eSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
let cassette: string;

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
  cassette = join(sandbox.dir, "run.cassette.jsonl");
});
afterEach(async () => {
  const pending = server.pending();
  await server.close();
  sandbox.cleanup();
  expect(pending).toBe(0);
});

const GOAL = "Say hello";

/** Records `agent <command> GOAL` through the fake server (one answer, with usage so it has a cost). */
async function record(command: "run" | "helper"): Promise<void> {
  server.enqueue({ text: "Hello.", usage: { input: 1000, output: 200 } });
  const result = await runAgentIn(
    sandbox,
    [command, "--record", cassette, GOAL],
    anthropicEnv(sandbox, server),
  );
  expect(result.code).toBe(0);
}

/** Replays with no key at all: nothing may reach the network. */
function replay(args: string[]) {
  return runAgentIn(sandbox, args, sandbox.env());
}

describe("agent run --replay", () => {
  test("the same goal replays; cost_usd is 0 and recorded_cost_usd carries the recorded cost", async () => {
    await record("run");
    const result = await replay(["run", "-o", "json", "--replay", cassette, GOAL]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as {
      answer: string;
      usage: { cost_usd: number };
      recorded_cost_usd: number;
    };
    expectJsonShape(output);
    expect(output.answer).toBe("Hello.");
    expect(output.usage.cost_usd).toBe(0);
    expect(output.recorded_cost_usd).toBeGreaterThan(0);
  });

  test("another goal exits 2 naming the difference, with one JSON error object", async () => {
    await record("run");
    const result = await replay(["run", "-o", "json", "--replay", cassette, "Say goodbye"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("request 1 does not match the recording: the task is");
    expect(result.stderr).toContain("--replay-loose");
    const output = JSON.parse(result.stdout) as {
      status: string;
      error: { kind: string; message: string };
      exit_code: number;
    };
    expect(output).toMatchObject({ status: "error", exit_code: 2, error: { kind: "usage" } });
    expect(output.error.message).toContain("Say goodbye");
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
  });

  test("another model exits 2 naming both models", async () => {
    await record("run");
    const result = await replay(["run", "--replay", cassette, "-m", "anthropic:claude-sonnet-5-5", GOAL]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "the model is anthropic:claude-sonnet-5-5, the cassette recorded anthropic:",
    );
    expect(result.stdout).toBe("");
  });

  test("--replay-loose serves the cassette for another goal", async () => {
    await record("run");
    const result = await replay(["run", "--replay", cassette, "--replay-loose", "Say goodbye"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hello.\n");
  });
});

describe("agent helper --replay", () => {
  test("another prompt exits 2; the same prompt replays at cost 0 with the recorded cost apart", async () => {
    await record("helper");
    const miss = await replay(["helper", "--json", "--replay", cassette, "Say goodbye"]);
    expect(miss.code).toBe(2);
    expect(JSON.parse(miss.stdout)).toMatchObject({
      status: "error",
      exit_code: 2,
      error: { kind: "usage" },
    });
    const hit = await replay(["helper", "--json", "--replay", cassette, GOAL]);
    expect(hit.code).toBe(0);
    const output = JSON.parse(hit.stdout) as {
      answer: string;
      usage: { cost_usd: number };
      recorded_cost_usd: number;
    };
    expect(output.answer).toBe("Hello.");
    expect(output.usage.cost_usd).toBe(0);
    expect(output.recorded_cost_usd).toBeGreaterThan(0);
  });
});
