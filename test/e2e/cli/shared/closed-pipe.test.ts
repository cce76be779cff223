// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the bash script reads its own ${PIPESTATUS[0]}
/**
 * A reader that goes away early (`agent run --output stream-json | head -1`) closes our stdout: the
 * writes after that fail with EPIPE, which used to be printed as a stack trace. Now the first failed
 * write stops the run quietly (issue 11: aborted like Ctrl-C, exit 141 as for SIGPIPE), its transcript
 * written. stdout here is a pipe whose reader (`true`) never reads and exits at once, so every write that
 * comes after finds it closed. test/e2e/process/broken-pipe.test.ts pins that no model request follows.
 */
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { AGENT_BIN, runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

/** Runs bin/agent with its stdout piped into `true`; the exit code is the agent's. */
const intoClosedPipe = ["bash", "-c", '"$@" | true; exit "${PIPESTATUS[0]}"', "closed-pipe", AGENT_BIN];

const env = () =>
  fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-pipe-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });

test("agent run --output stream-json into a closed pipe: no stack trace, exit 141, transcript kept", async () => {
  // The run stops at the first failed write, so the scripted turns may never be asked for.
  fx.mayLeaveTurns();
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
  expect(result.code).toBe(141);
  expect(readdirSync(join(fx.sandbox.stateDir, "agent", "sessions")).length).toBeGreaterThan(0);
});

test("agent helper into a closed pipe: no stack trace, exit 141", async () => {
  fx.server.enqueue({ text: "an answer" });
  const result = await runAgent(["helper", "hi"], { env: env(), cwd: fx.sandbox.dir, bin: intoClosedPipe });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(141);
});
