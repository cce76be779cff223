import { expect, test } from "bun:test";
import { AGENT_BIN, withFakeServerAndSandbox } from "./run-agent.ts";

const fx = withFakeServerAndSandbox();

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

test("on a terminal the answer streams as it arrives", async () => {
  fx.server.enqueue({ text: ["first ", "second ", "third"], chunkDelayMs: 400 });
  // util-linux `script` gives the child a pseudo-terminal and copies its output to our pipe as it comes.
  const command = [AGENT_BIN, "helper", "hi"].map(shellQuote).join(" ");
  const proc = Bun.spawn(["script", "-qfec", command, "/dev/null"], {
    env: fx.sandbox.env({
      ANTHROPIC_API_KEY: "sk-ant-test-tty-000001",
      ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
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
