import { expect, test } from "bun:test";
import { AGENT_BIN, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

/** Starts `agent helper ...args`, waits until its model request arrived, sends SIGINT; returns the result. */
async function interruptMidCall(args: string[]) {
  fx.server.enqueue({ text: ["partial ", "answer"], hangAfterEvents: 3 });
  const before = fx.server.requests.length;
  const proc = Bun.spawn([AGENT_BIN, "helper", ...args], {
    env: fx.sandbox.env({
      ANTHROPIC_API_KEY: "sk-ant-test-int-000001",
      ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
    }),
    cwd: fx.sandbox.dir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const deadline = Date.now() + 5000;
  while (fx.server.requests.length === before && Date.now() < deadline) await Bun.sleep(20);
  await Bun.sleep(100);
  const sentAt = performance.now();
  proc.kill("SIGINT");
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code, ms: performance.now() - sentAt };
}

test("Ctrl-C during a single helper call exits 130 promptly", async () => {
  const result = await interruptMidCall(["hi"]);
  expect(result.code).toBe(130);
  expect(result.stdout).toBe("");
  expect(result.stderr).toBe("agent: interrupted\n");
  expect(result.ms).toBeLessThan(2000);
});

test("Ctrl-C during a helper --tools run exits 130 promptly", async () => {
  const result = await interruptMidCall(["--tools", "read_file", "hi"]);
  expect(result.code).toBe(130);
  expect(result.stdout).toBe("");
  expect(result.stderr).toBe("agent: interrupted\n");
  expect(result.ms).toBeLessThan(2000);
});
