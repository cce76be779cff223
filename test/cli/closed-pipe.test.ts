// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the bash script reads its own ${PIPESTATUS[0]}
/**
 * A reader that goes away early (`agent run --output stream-json | head -1`) closes our stdout: the
 * writes after that fail with EPIPE, which used to be printed as a stack trace. Now the run goes on
 * quietly and ends with its own exit code, its transcript written. stdout here is a pipe whose reader
 * (`true`) never reads and exits at once, so every write that comes after finds it closed.
 */
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { AGENT_BIN, runAgent, withFakeServerAndSandbox } from "./run-agent.ts";

const fx = withFakeServerAndSandbox();

/** Runs bin/agent with its stdout piped into `true`; the exit code is the agent's. */
const intoClosedPipe = ["bash", "-c", '"$@" | true; exit "${PIPESTATUS[0]}"', "closed-pipe", AGENT_BIN];

const env = () =>
  fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-pipe-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });

test("agent run --output stream-json into a closed pipe: no stack trace, exit 0, transcript kept", async () => {
  fx.server.enqueue(
    { toolCalls: [{ name: "code-reader", args: { goal: "look around" } }] },
    { text: "nothing" },
    {
      text: "all done",
    },
  );
  const result = await runAgent(["run", "look around", "--output", "stream-json"], {
    env: env(),
    cwd: fx.sandbox.dir,
    bin: intoClosedPipe,
  });
  expect(result.stderr).not.toContain("EPIPE");
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.code).toBe(0);
  expect(readdirSync(join(fx.sandbox.stateDir, "agent", "sessions")).length).toBeGreaterThan(0);
});

test("agent helper into a closed pipe: no stack trace, exit 0", async () => {
  fx.server.enqueue({ text: "an answer" });
  const result = await runAgent(["helper", "hi"], { env: env(), cwd: fx.sandbox.dir, bin: intoClosedPipe });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
});
