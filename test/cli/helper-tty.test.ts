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

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

test("on a terminal the answer streams as it arrives", async () => {
  server.enqueue({ text: ["first ", "second ", "third"], chunkDelayMs: 400 });
  // util-linux `script` gives the child a pseudo-terminal and copies its output to our pipe as it comes.
  const command = [AGENT_BIN, "helper", "hi"].map(shellQuote).join(" ");
  const proc = Bun.spawn(["script", "-qfec", command, "/dev/null"], {
    env: sandbox.env({
      ANTHROPIC_API_KEY: "sk-ant-test-tty-000001",
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const arrivals: { at: number; text: string }[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout)
    arrivals.push({ at: performance.now(), text: decoder.decode(chunk) });
  const code = await proc.exited;
  const end = performance.now();
  expect(code).toBe(0);
  const output = arrivals.map((a) => a.text).join("");
  expect(output.replace(/\r/g, "")).toBe("first second third\n");
  const first = arrivals.find((a) => a.text.includes("first"));
  // "first" was on screen well before the last chunk was even sent.
  expect(first).toBeDefined();
  expect(end - (first?.at ?? end)).toBeGreaterThan(500);
});
