import { beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_BIN, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

beforeAll(async () => {
  writeFileSync(join(fx.sandbox.dir, "notes.txt"), "the answer is 42\n");
});

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

test("on a terminal, helper --tools shows one progress line per tool call, then the answer", async () => {
  fx.server.enqueue({ toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] }, { text: "42" });
  // util-linux `script` gives the child a pseudo-terminal (stdout and stderr both) and copies it to our pipe.
  const command = [AGENT_BIN, "helper", "--tools", "read_file", "answer?"].map(shellQuote).join(" ");
  const proc = Bun.spawn(["script", "-qfec", command, "/dev/null"], {
    env: fx.sandbox.env({
      ANTHROPIC_API_KEY: "sk-ant-test-tty-000002",
      ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
    }),
    cwd: fx.sandbox.dir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = (await new Response(proc.stdout).text()).replace(/\r/g, "");
  expect(await proc.exited).toBe(0);
  const lines = output.trim().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^agent: ✓ read_file .*notes\.txt/);
  expect(lines[1]).toBe("42");
});
