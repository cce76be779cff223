import { afterAll, beforeAll, expect, test } from "bun:test";
import { type FakeLlmServer, startFakeLlmServer } from "../support/fake-llm-server.ts";
import { AGENT_BIN, makeSandbox, type Sandbox } from "./run-agent.ts";

let server: FakeLlmServer;
let sandbox: Sandbox;

beforeAll(async () => {
  server = await startFakeLlmServer();
  sandbox = makeSandbox();
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
});

/** Starts `agent helper ...args`, waits until its model request arrived, sends SIGINT; returns the result. */
async function interruptMidCall(args: string[]) {
  server.enqueue({ text: ["partial ", "answer"], hangAfterEvents: 3 });
  const before = server.requests.length;
  const proc = Bun.spawn([AGENT_BIN, "helper", ...args], {
    env: sandbox.env({
      ANTHROPIC_API_KEY: "sk-ant-test-int-000001",
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    }),
    cwd: sandbox.dir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const deadline = Date.now() + 5000;
  while (server.requests.length === before && Date.now() < deadline) await Bun.sleep(20);
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
