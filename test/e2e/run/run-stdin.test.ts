/**
 * Piped stdin for `agent run` (and the helper, which shares src/cli/shared/io/stdin-input.ts), without a TTY,
 * against the fake LLM server: the goal plus stdin as a delimited block, stdin as the goal, binary and
 * oversized input refused with exit 2, and an open stdin that never sends anything does not hang.
 */
import { describe, expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, spawnAgent } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

function run(args: string[], stdin?: string | Uint8Array | "open") {
  return spawnAgent(args, {
    env: anthropicEnv(sandbox, server),
    cwd: sandbox.workspace,
    ...(stdin !== undefined ? { stdin } : {}),
  }).done;
}

/** The text of the first user message the model received. */
function firstUserText(): string {
  const body = server.requests[0]?.body as { messages?: { content?: unknown }[] } | undefined;
  return JSON.stringify(body?.messages?.[0]?.content ?? "");
}

describe("agent run with piped stdin", () => {
  test("goal from the arguments plus stdin as a <stdin> block", async () => {
    server.enqueue({ text: "Fixed." });
    const result = await run(["run", "fix this"], "ERR: missing semicolon\n");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Fixed.\n");
    const text = firstUserText();
    expect(text).toContain("fix this");
    expect(text).toContain("<stdin>\\nERR: missing semicolon\\n</stdin>");
  });

  test("no goal argument: stdin is the goal", async () => {
    server.enqueue({ text: "Listed." });
    const result = await run(["run"], "list the files\n");
    expect(result.code).toBe(0);
    const text = firstUserText();
    expect(text).toContain("list the files");
    expect(text).not.toContain("<stdin>");
  });

  test("`agent run -` takes stdin as the goal", async () => {
    server.enqueue({ text: "Counted." });
    const result = await run(["run", "-"], "count the lines\n");
    expect(result.code).toBe(0);
    expect(firstUserText()).toContain("count the lines");
    expect(firstUserText()).not.toContain("<stdin>");
  });

  test("no goal and empty stdin: exit 2 saying how to give one", async () => {
    const result = await run(["run"], "");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pipe it on stdin");
    expect(server.requests).toHaveLength(0);
  });

  test("NUL bytes on stdin: exit 2, binary refused, no model call", async () => {
    const result = await run(["run", "explain"], new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("binary");
    expect(result.stderr).toContain("pipe text instead");
    expect(server.requests).toHaveLength(0);
  });

  test("invalid UTF-8 on stdin: exit 2", async () => {
    const result = await run(["run", "explain"], new Uint8Array([0x68, 0x69, 0xff, 0xfe, 0x0a]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("invalid UTF-8");
    expect(server.requests).toHaveLength(0);
  });

  test("a multi-byte character cut at the 1 KiB sniff boundary is still text", async () => {
    server.enqueue({ text: "ok" });
    const result = await run(["run", "summarise"], `${"a".repeat(1023)}é and more\n`);
    expect(result.code).toBe(0);
    expect(firstUserText()).toContain("é and more");
  });

  test("input above the model's context window: exit 2 naming the model and what to do", async () => {
    // The fast Anthropic model's window is 1M tokens; the estimate is one token per 3 bytes.
    const result = await run(["run", "summarise"], "x".repeat(3_000_100));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/stdin is too large for claude-[\w-]+: about 1000034 tokens/);
    expect(result.stderr).toContain("pipe less");
    expect(server.requests).toHaveLength(0);
  });

  test("an open stdin that never sends anything does not hang a run whose goal is an argument", async () => {
    server.enqueue({ text: "Done." });
    const result = await run(["run", "say done"], "open");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done.\n");
    expect(result.stderr).toContain("no stdin data within 3s, going on without it");
    expect(firstUserText()).not.toContain("<stdin>");
    // A generous bound for "it ended at all": the wait itself is 3 s, startup is slow on a loaded machine.
  }, 30_000);
});

describe("agent helper shares the stdin rules", () => {
  test("binary stdin: exit 2", async () => {
    const result = await run(["helper", "what is this"], new Uint8Array([0, 0, 0, 1]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("binary");
    expect(server.requests).toHaveLength(0);
  });

  test("`agent helper -` takes stdin as the prompt", async () => {
    server.enqueue({ text: "4" });
    const result = await run(["helper", "-"], "2+2?\n");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("4\n");
    expect(firstUserText()).toContain("2+2?");
    expect(firstUserText()).not.toContain("<stdin>");
  });
});
