import { afterAll, describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { EXEC_OUTPUT_LIMIT, execTool } from "../../../src/tools/exec/exec.ts";
import { minimalEnv } from "../../../src/tools/exec/exec-env.ts";
import { cleanup, contextFor, goneSoon, tempDir } from "../helpers.ts";

const root = await tempDir();
afterAll(() => cleanup(root));

async function pidFrom(file: string): Promise<number> {
  return Number((await readFile(join(root, file), "utf8")).trim());
}

describe("exec", () => {
  test("runs bash in the workspace and reports the exit code", async () => {
    const out = await execTool.run({ command: "pwd; echo err >&2; exit 0" }, await contextFor(root));
    expect(out.isError).toBe(false);
    expect(out.modelText).toContain(root);
    expect(out.modelText).toContain("err");
    expect(out.modelText).toContain("[exit code 0]");
    expect(out.display).toStartWith("$ pwd;");
  });

  test("output streams to onOutput as it arrives; the user sees a line count and the last lines", async () => {
    const chunks: string[] = [];
    const ctx = { ...(await contextFor(root)), onOutput: (text: string) => chunks.push(text) };
    const out = await execTool.run({ command: "for i in $(seq 1 12); do echo line $i; done; exit 1" }, ctx);
    expect(chunks.join("")).toBe(Array.from({ length: 12 }, (_, i) => `line ${i + 1}\n`).join(""));
    expect(out.summary).toBe("exit code 1, 12 lines");
    expect(out.tail).toEqual(["line 8", "line 9", "line 10", "line 11", "line 12"]);
  });

  test("a failing command is an error result with its exit code", async () => {
    const out = await execTool.run({ command: "echo nope; exit 3" }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("nope");
    expect(out.modelText).toContain("[exit code 3]");
  });

  test("timeout kills the whole process group, children included", async () => {
    const started = Date.now();
    const out = await execTool.run(
      { command: "sleep 30 & echo $! > timeout-child.pid; wait", timeout_ms: 300 },
      await contextFor(root),
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("timed out after 300 ms");
    const pid = await pidFrom("timeout-child.pid");
    expect(pid).toBeGreaterThan(0);
    expect(await goneSoon(pid)).toBe(true);
  });

  test("abort kills the whole process group", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const out = await execTool.run(
      { command: "sleep 30 & echo $! > abort-child.pid; wait" },
      await contextFor(root, { signal: controller.signal }),
    );
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("aborted");
    expect(await goneSoon(await pidFrom("abort-child.pid"))).toBe(true);
  });

  test("background jobs do not outlive the command, even with their output redirected", async () => {
    const out = await execTool.run(
      { command: "sleep 30 >/dev/null 2>&1 & echo $! > bg-child.pid; echo started" },
      await contextFor(root),
    );
    expect(out.modelText).toContain("started");
    expect(await goneSoon(await pidFrom("bg-child.pid"))).toBe(true);
  });

  test("output is capped with a note saying how much was cut", async () => {
    const out = await execTool.run(
      { command: "head -c 100000 /dev/zero | tr '\\0' a; echo; echo THE-END" },
      await contextFor(root),
    );
    // 100,000 a's, a newline and "THE-END\n": 100,009 bytes, of which 30,000 are kept.
    expect(out.modelText).toContain("[output truncated: 70009 bytes cut from the middle]");
    expect(out.modelText).toContain("THE-END");
    expect(out.modelText.length).toBeLessThan(EXEC_OUTPUT_LIMIT + 200);
  });

  test("provider keys and secret-looking variables never reach the child", async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: "/home/someone",
      LANG: "C.UTF-8",
      ANTHROPIC_API_KEY: "a-value-1",
      OPENAI_API_KEY: "a-value-2",
      GEMINI_API_KEY: "a-value-3",
      GITHUB_TOKEN: "a-value-4",
      AWS_SECRET_ACCESS_KEY: "a-value-5",
      SOME_RANDOM_SETTING: "a-value-6",
    };
    const out = await execTool.run({ command: "env | cut -d= -f1 | sort" }, await contextFor(root, { env }));
    const names = out.modelText.split("\n");
    expect(names).toContain("HOME");
    expect(names).toContain("LANG");
    expect(names).toContain("PATH");
    for (const name of Object.keys(env).filter((n) => !["PATH", "HOME", "LANG"].includes(n))) {
      expect(names).not.toContain(name);
    }
  });

  test("by default the child env derives from process.env without its keys", async () => {
    process.env.AGENT_TEST_FAKE_API_KEY = "fake-key-value-123";
    try {
      const out = await execTool.run({ command: "env" }, await contextFor(root));
      expect(out.modelText).not.toContain("AGENT_TEST_FAKE_API_KEY");
      expect(out.modelText).not.toContain("fake-key-value-123");
    } finally {
      delete process.env.AGENT_TEST_FAKE_API_KEY;
    }
  });

  test("minimalEnv keeps only the allow-list and makes commands non-interactive", () => {
    const env = minimalEnv({ USER: "u", TMPDIR: "/t", OPENAI_API_KEY: "k", NODE_OPTIONS: "--x" });
    expect(env).toEqual({
      USER: "u",
      TMPDIR: "/t",
      PATH: "/usr/local/bin:/usr/bin:/bin",
      TERM: "dumb",
      PAGER: "cat",
      GIT_PAGER: "cat",
      GIT_TERMINAL_PROMPT: "0",
    });
  });

  test("known secrets in output are redacted (default redactor from the environment)", async () => {
    process.env.AGENT_TEST_SECRET = "hunter2-but-longer";
    try {
      const ctx = await contextFor(root);
      delete ctx.redactor;
      const out = await execTool.run({ command: "echo hunter2-but-longer" }, ctx);
      expect(out.modelText).not.toContain("hunter2-but-longer");
      expect(out.modelText).toContain("[REDACTED]");
    } finally {
      delete process.env.AGENT_TEST_SECRET;
    }
  });

  test("policy target and preview are the command", async () => {
    const ctx = await contextFor(root);
    expect(await execTool.policyTarget({ command: "npm test" }, ctx)).toEqual({
      targets: ["npm test"],
      sensitive: false,
    });
    expect(await execTool.preview({ command: "npm test" }, ctx)).toBe("npm test");
  });

  test("arguments are validated", () => {
    expect(execTool.validate({ command: "ls" }).ok).toBe(true);
    expect(execTool.validate({ command: "" }).ok).toBe(false);
    expect(execTool.validate({ command: "ls", timeout_ms: -1 }).ok).toBe(false);
    expect(execTool.validate({ cmd: "ls" }).ok).toBe(false);
  });
});
