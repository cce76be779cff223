/**
 * What a hook's exit code and output do to a call (src/agents/hooks/hook-runner.ts): exit 0 goes on and its
 * stdout is a note the model reads; any other code but 2 is a warning and the call goes on; `match`
 * picks calls by the approval rules' syntax; a hook's environment is the minimal one plus the session id.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createHookRunner } from "../../../src/agents/hooks/hook-runner.ts";
import { type HookCall, type HooksConfig, hookMatches } from "../../../src/agents/hooks/hooks.ts";
import { Redactor } from "../../../src/kernel/text/redact.ts";
import { survivors } from "../../support/mcp-fixture.ts";
import { type Harness, harness, spec, toolResultsIn } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

async function runWithHooks(hooks: Partial<HooksConfig>, command: string, env: Record<string, string> = {}) {
  h = await harness({
    specs: [spec("root", ["exec"])],
    script: { queue: [{ toolCalls: [{ name: "exec", arguments: { command } }] }, { text: "done" }] },
  });
  const harnessed = h;
  const runner = createHookRunner({
    hooks: { before_tool: [], after_tool: [], on_stop: [], ...hooks },
    cwd: harnessed.dir,
    sessionId: "session-42",
    emit: (e) => harnessed.events.push(e),
    who: { agent: "root", name: "root", depth: 0 },
    redactor: new Redactor(["hook-secret-value"]),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
  });
  const result = await harnessed.run("go", { hooks: runner });
  return { result, seen: toolResultsIn(harnessed, 1)[0]?.content ?? "", dir: harnessed.dir };
}

test("exit 0 lets the call go on, and its stdout (redacted) is a note the model reads", async () => {
  const { seen, dir } = await runWithHooks(
    { before_tool: [{ command: "echo 'remember: hook-secret-value is the style guide'" }] },
    "touch ran.txt; echo ran",
  );
  expect(existsSync(join(dir, "ran.txt"))).toBe(true);
  expect(seen).toContain("[hook] remember: [REDACTED] is the style guide");
});

describe("Claude Code's JSON output on stdout (exit 0)", () => {
  const json = (value: unknown) => `echo '${JSON.stringify(value)}'`;

  test("a permissionDecision deny blocks the call like exit 2; the model reads the redacted reason", async () => {
    const hook = json({
      hookSpecificOutput: {
        permissionDecision: "deny",
        permissionDecisionReason: "no hook-secret-value runs",
      },
    });
    const { seen, dir } = await runWithHooks({ before_tool: [{ command: hook }] }, "touch ran.txt");
    expect(existsSync(join(dir, "ran.txt"))).toBe(false);
    expect(seen).toContain("no [REDACTED] runs");
    expect(seen).not.toContain("hook-secret-value");
  });

  test("the older decision block form blocks too", async () => {
    const hook = json({ decision: "block", reason: "use git clean" });
    const { seen, dir } = await runWithHooks({ before_tool: [{ command: hook }] }, "touch ran.txt");
    expect(existsSync(join(dir, "ran.txt"))).toBe(false);
    expect(seen).toContain("use git clean");
  });

  test("allow approves nothing: the call still goes to the gate, which refuses what the rules deny", async () => {
    h = await harness({
      specs: [spec("root", ["exec"])],
      script: {
        queue: [{ toolCalls: [{ name: "exec", arguments: { command: "touch ran.txt" } }] }, { text: "done" }],
      },
      deny: ["exec:touch *"],
    });
    const harnessed = h;
    const runner = createHookRunner({
      hooks: {
        before_tool: [{ command: json({ hookSpecificOutput: { permissionDecision: "allow" } }) }],
        after_tool: [],
        on_stop: [],
      },
      cwd: harnessed.dir,
      sessionId: "session-42",
      emit: (e) => harnessed.events.push(e),
      who: { agent: "root", name: "root", depth: 0 },
      redactor: new Redactor([]),
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    await harnessed.run("go", { hooks: runner });
    expect(existsSync(join(harnessed.dir, "ran.txt"))).toBe(false);
    expect(toolResultsIn(harnessed, 1)[0]?.content ?? "").toContain("DENIED");
  });

  test("additionalContext is a note the model reads after the result; an after_tool block adds its reason", async () => {
    const { seen, dir } = await runWithHooks(
      {
        before_tool: [
          { command: json({ hookSpecificOutput: { additionalContext: "the build dir is disposable" } }) },
        ],
        after_tool: [{ command: json({ decision: "block", reason: "lint found 2 problems" }) }],
      },
      "touch ran.txt; echo ran",
    );
    expect(existsSync(join(dir, "ran.txt"))).toBe(true);
    expect(seen).toContain("the build dir is disposable");
    expect(seen).toContain("lint found 2 problems");
  });
});

test("another exit code is a warning and the call goes on", async () => {
  const { seen, dir } = await runWithHooks(
    { before_tool: [{ command: "echo 'lint crashed' >&2; exit 1" }] },
    "touch ran.txt; echo ran",
  );
  expect(existsSync(join(dir, "ran.txt"))).toBe(true);
  expect(seen).toContain("ran");
  const warnings = h?.of("warning").filter((e) => e.data.code === "hook") ?? [];
  expect(warnings.map((e) => e.data.message)).toEqual([
    "before_tool hook `echo 'lint crashed' >&2; exit 1` exited with 1: lint crashed",
  ]);
});

test("match picks the calls a hook sees, with the rules' pattern syntax", async () => {
  const { dir } = await runWithHooks(
    {
      before_tool: [
        { match: "exec:npm *", command: "touch npm-hook.txt" },
        { match: "exec:touch *", command: "touch touch-hook.txt" },
        { match: "write_file", command: "touch write-hook.txt" },
      ],
    },
    "touch ran.txt",
  );
  expect(existsSync(join(dir, "touch-hook.txt"))).toBe(true);
  expect(existsSync(join(dir, "npm-hook.txt"))).toBe(false);
  expect(existsSync(join(dir, "write-hook.txt"))).toBe(false);
});

test("a hook gets the minimal environment plus AGENT_SESSION_ID, never a key", async () => {
  const { dir } = await runWithHooks({ before_tool: [{ command: "env > hook-env.txt" }] }, "echo ran", {
    ANTHROPIC_API_KEY: "sk-ant-should-not-leak-123456",
    HOME: "/home/someone",
  });
  const env = readFileSync(join(dir, "hook-env.txt"), "utf8");
  expect(env).toContain("AGENT_SESSION_ID=session-42");
  expect(env).toContain("HOME=/home/someone");
  expect(env).not.toContain("ANTHROPIC_API_KEY");
  expect(env).not.toContain("sk-ant-should-not-leak");
});

/** The pids a hook wrote to `file`, one per line. */
function pidsIn(file: string): number[] {
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number);
}

test("a hook that hangs with background children is ended at its timeout, children and setsid ones included", async () => {
  const hook =
    "sleep 300 & echo $! >> pids; setsid sleep 300 < /dev/null > /dev/null 2>&1 & echo $! >> pids; sleep 300";
  const started = Date.now();
  const { seen, dir } = await runWithHooks({ before_tool: [{ command: hook, timeoutMs: 500 }] }, "echo ran");
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(seen).toContain("ran");
  const pids = pidsIn(join(dir, "pids"));
  expect(pids).toHaveLength(2);
  expect(await survivors(pids)).toEqual([]);
  const warnings = h?.of("warning").filter((e) => e.data.code === "hook") ?? [];
  expect(warnings.map((e) => e.data.message)).toEqual([
    `before_tool hook \`${hook}\` timed out after 500 ms; the call goes on`,
  ]);
});

test("a hook that exits at once leaves no background process behind", async () => {
  const hook = "nohup sleep 300 > /dev/null 2>&1 & echo $! > pids; exit 0";
  const { dir } = await runWithHooks({ after_tool: [{ command: hook }] }, "echo ran");
  expect(await survivors(pidsIn(join(dir, "pids")))).toEqual([]);
});

describe("a hook's match sees through the shell as a deny rule does", () => {
  const exec = (command: string): HookCall => ({
    tool: "exec",
    policyName: "exec",
    targets: [command],
    args: { command },
  });
  test.each([
    "rm -rf build",
    "echo hi && rm -rf build",
    "cd src; /bin/rm -rf build",
    "sudo rm -rf build",
    "bash -c 'rm -rf build'",
    "find . -exec rm {} +",
  ])("exec:rm * covers %s", (command) => {
    expect(hookMatches("exec:rm *", exec(command))).toBe(true);
  });
  test.each(["echo rm -rf build", "ls farm", "grep rm notes.txt"])("exec:rm * leaves %s alone", (command) => {
    expect(hookMatches("exec:rm *", exec(command))).toBe(false);
  });
  test("a file rule's match fires for every tool that changes files (a GPT model's apply_patch too)", () => {
    const patch = { tool: "apply_patch", policyName: "apply_patch", targets: ["greet.js"], args: {} };
    expect(hookMatches("edit_file:*.js", patch)).toBe(true);
    expect(hookMatches("edit_file:*.js", { ...patch, targets: ["a.ts"] })).toBe(false);
    expect(hookMatches("write_file:greet.js", patch)).toBe(true);
    expect(hookMatches("read_file:*.js", patch)).toBe(false);
  });
  test("other tools, agents and a verify command's own name keep their meaning", () => {
    const write = { tool: "write_file", policyName: "write_file", targets: ["src/a.ts"], args: {} };
    expect(hookMatches("write_file:src/**", write)).toBe(true);
    expect(hookMatches("write_file:docs/**", write)).toBe(false);
    const worker = { tool: "worker", policyName: "worker", targets: [], args: { goal: "g" } };
    expect(hookMatches("worker", worker)).toBe(true);
    expect(hookMatches("exec", worker)).toBe(false);
    const verify = { tool: "verify", policyName: "exec", targets: ["npm test && rm -rf dist"], args: {} };
    expect(hookMatches("verify", verify)).toBe(true);
    expect(hookMatches("exec:rm *", verify)).toBe(true);
  });
});
