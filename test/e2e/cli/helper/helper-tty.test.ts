import { expect, test } from "bun:test";
import { AGENT_BIN, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

const KEY = "sk-ant-test-tty-000001";

/** Runs `agent helper hi` on a pseudo-terminal; resolves to the exit code and stdout chunks as they came. */
async function helperOnTerminal() {
  // util-linux `script` gives the child a pseudo-terminal and copies its output to our pipe as it comes.
  const command = [AGENT_BIN, "helper", "hi"].map(shellQuote).join(" ");
  const proc = Bun.spawn(["script", "-qfec", command, "/dev/null"], {
    env: fx.sandbox.env({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl }),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const arrivals: { at: number; text: string }[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of proc.stdout)
    arrivals.push({ at: performance.now(), text: decoder.decode(chunk) });
  return { code: await proc.exited, arrivals };
}

test("on a terminal the answer streams as it arrives", async () => {
  fx.server.enqueue({ text: ["first ", "second ", "third"], chunkDelayMs: 400 });
  const { code, arrivals } = await helperOnTerminal();
  const end = performance.now();
  expect(code).toBe(0);
  const output = arrivals.map((a) => a.text).join("");
  expect(output.replace(/\r/g, "")).toBe("first second third\n");
  const first = arrivals.find((a) => a.text.includes("first"));
  // "first" was on screen well before the last chunk was even sent.
  expect(first).toBeDefined();
  expect(end - (first?.at ?? end)).toBeGreaterThan(500);
});

test("a key split across streamed deltas is redacted on the terminal, the rest of the text intact", async () => {
  fx.server.enqueue({ text: ["your key is sk-ant-te", "st-tty-", "000001 and more"] });
  const { code, arrivals } = await helperOnTerminal();
  expect(code).toBe(0);
  const output = arrivals.map((a) => a.text).join("");
  expect(output).not.toContain("000001");
  expect(output.replace(/\r/g, "")).toBe("your key is [REDACTED] and more\n");
});
