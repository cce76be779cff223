/**
 * Provider faults seen from outside (issue 22): bin/agent against the fake server.
 * - A connection reset after a tool call's first argument delta, before anything was shown, is retried
 *   and the run completes.
 * - A provider that goes silent ends the run within the configured idle bound (AGENT_IDLE_TIMEOUT_MS),
 *   exit 4 with error kind idle_timeout, after one request: silence is not retried.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, withFakeServerAndSandbox } from "../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

function env(extra: Record<string, string> = {}): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-faults-0001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
    ...extra,
  });
}

test("a reset after a tool call's first delta is retried and the run completes", async () => {
  writeFileSync(join(fx.sandbox.home, "notes.txt"), "the secret word is heron\n");
  const call = { name: "read_file", args: { path: "notes.txt" }, fragments: 3 };
  // message_start, content_block_start (tool_use), the first input_json_delta: then the reset.
  fx.server.enqueue({ toolCalls: [call], cutAfterEvents: 3 }, { toolCalls: [call] }, { text: "heron" });
  const before = fx.server.requests.length;
  const result = await runAgent(["helper", "--tools", "read_file", "what is the word?"], {
    env: env(),
    cwd: fx.sandbox.home,
  });
  expect(result.stderr).not.toContain("truncated");
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("heron\n");
  const requests = fx.server.requests.slice(before);
  expect(requests).toHaveLength(3);
  expect(JSON.stringify(requests[2]?.body)).toContain("the secret word is heron");
});

test("a silent provider ends the run after the configured idle bound: exit 4, idle_timeout", async () => {
  fx.server.enqueue({ text: "never sent", hangAfterEvents: 0 });
  const before = fx.server.requests.length;
  const result = await runAgent(["run", "--output", "json", "hello?"], {
    env: env({ AGENT_IDLE_TIMEOUT_MS: "300" }),
    cwd: fx.sandbox.home,
  });
  fx.server.dropHanging();
  expect(result.code).toBe(4);
  const json = JSON.parse(result.stdout) as { error?: { kind?: string; message?: string } };
  expect(json.error?.kind).toBe("idle_timeout");
  expect(json.error?.message).toContain("no data for 300 ms");
  expect(fx.server.requests.length - before).toBe(1);
});

test("a malformed AGENT_IDLE_TIMEOUT_MS is a configuration error naming the variable (exit 3)", async () => {
  const result = await runAgent(["run", "--output", "json", "hello?"], {
    env: env({ AGENT_IDLE_TIMEOUT_MS: "soon" }),
    cwd: fx.sandbox.home,
  });
  expect(result.code).toBe(3);
  expect(result.stderr).toContain("AGENT_IDLE_TIMEOUT_MS=soon");
});
