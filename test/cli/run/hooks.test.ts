/**
 * Hooks around tool calls through `agent run` in the test process (in-process.ts) and the fake server: a before_tool hook that
 * exits 2 blocks the call and the model reads its stderr as the reason; an after_tool hook gets the call
 * and its result as JSON on stdin and the session id in AGENT_SESSION_ID; a hook past its timeout is a
 * warning and the run goes on; on_stop runs at the end; a project's hooks run only when the user config
 * trusts the project. `agent helper --tools`'s hooks: test/e2e/agents/hooks.test.ts.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox } from "../../e2e/support.ts";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { runInSandbox } from "./in-process.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const TEST_TIMEOUT_MS = 60_000;

function writeUserConfig(yaml: string): void {
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(join(sandbox.configDir, "agent", "config.yaml"), yaml);
}

function run(...extra: string[]) {
  return runInSandbox(
    sandbox,
    ["run", "--agent", "command-runner", "--on-ask", "allow", "--output", "json", ...extra, "tidy up"],
    anthropicEnv(sandbox, server),
  );
}

/** Runs with one hook in the user config while the model calls exec with `command` once, then answers. */
function runWithHook(kind: string, match: string, hook: string, command: string) {
  writeUserConfig(
    `hooks:\n  ${kind}:\n    - match: ${JSON.stringify(match)}\n      command: ${JSON.stringify(hook)}\n`,
  );
  server.enqueue({ toolCalls: [{ name: "exec", args: { command } }] }, { text: "Done." });
  return run();
}

/** The text of every tool result the model was sent in request `index`. */
function toolResultsSent(index: number): string {
  return JSON.stringify(server.requests[index]?.body ?? null);
}

const at = (name: string) => join(sandbox.dir, name);

test(
  "a before_tool hook that exits 2 blocks an exec call, and the model reads its stderr as the reason",
  async () => {
    mkdirSync(join(sandbox.workspace, "build"));
    const reason = "rm is not allowed here; use git clean";
    const result = await runWithHook(
      "before_tool",
      "exec:rm *",
      `echo '${reason}' >&2; exit 2`,
      "rm -rf build",
    );
    expect(result.code).toBe(0);
    expect(existsSync(join(sandbox.workspace, "build"))).toBe(true);
    expect(toolResultsSent(1)).toContain("rm is not allowed here; use git clean");
    expect(JSON.parse(result.stdout).denials).toMatchObject([
      { tool: "exec", target: "rm -rf build", decided_by: "hook", reason: reason },
    ]);
  },
  TEST_TIMEOUT_MS,
);

test(
  "a guard hook ported from Claude Code (exit 0, a permissionDecision deny on stdout) blocks the exec call",
  async () => {
    mkdirSync(join(sandbox.workspace, "build"));
    const decision = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "Destructive command blocked by hook",
      },
    };
    const result = await runWithHook(
      "before_tool",
      "exec:rm *",
      `echo '${JSON.stringify(decision)}'`,
      "rm -rf build",
    );
    expect(result.code).toBe(0);
    expect(existsSync(join(sandbox.workspace, "build"))).toBe(true);
    expect(toolResultsSent(1)).toContain("Destructive command blocked by hook");
    expect(JSON.parse(result.stdout).denials).toMatchObject([
      {
        tool: "exec",
        target: "rm -rf build",
        decided_by: "hook",
        reason: "Destructive command blocked by hook",
      },
    ]);
  },
  TEST_TIMEOUT_MS,
);

test(
  "an after_tool hook sees the call and its result on stdin, and the session id in its environment",
  async () => {
    const hook = `cat > ${at("after.json")}; printf '%s' "$AGENT_SESSION_ID" > ${at("sid.txt")}`;
    const result = await runWithHook("after_tool", "exec:*", hook, "echo hello-from-exec");
    expect(result.code).toBe(0);
    const event = JSON.parse(readFileSync(at("after.json"), "utf8"));
    expect(event).toMatchObject({
      hook_event_name: "after_tool",
      tool_name: "exec",
      target: "exec",
      tool_input: { command: "echo hello-from-exec" },
      tool_response: { is_error: false },
    });
    expect(event.tool_response.text).toContain("hello-from-exec");
    const sessionId = JSON.parse(result.stdout).session_id;
    expect(readFileSync(at("sid.txt"), "utf8")).toBe(sessionId);
    expect(event.session_id).toBe(sessionId);
  },
  TEST_TIMEOUT_MS,
);

test(
  "a hook past its timeout is a warning and the call goes on; on_stop runs at the end",
  async () => {
    writeUserConfig(
      [
        "hooks:",
        "  before_tool:",
        "    - command: sleep 300",
        "      timeout_ms: 300",
        "  on_stop:",
        `    - command: "cat > ${at("stop.json")}"`,
        "",
      ].join("\n"),
    );
    server.enqueue(
      { toolCalls: [{ name: "exec", args: { command: "echo ran-anyway" } }] },
      { text: "Done." },
    );
    const result = await run();
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("before_tool hook `sleep 300` timed out after 300 ms; the call goes on");
    expect(toolResultsSent(1)).toContain("ran-anyway");
    expect(JSON.parse(readFileSync(at("stop.json"), "utf8"))).toMatchObject({
      hook_event_name: "on_stop",
      status: "success",
      finish_reason: "stop",
      answer: "Done.",
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "a project's hooks run only when the user config trusts the project",
  async () => {
    mkdirSync(join(sandbox.workspace, ".agent"));
    writeFileSync(
      join(sandbox.workspace, ".agent", "config.yaml"),
      ["hooks:", "  on_stop:", "    - command: touch project-hook-ran", ""].join("\n"),
    );
    const marker = join(sandbox.workspace, "project-hook-ran");
    server.enqueue({ text: "Hi." });
    const untrusted = await run();
    expect(untrusted.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(untrusted.stderr).toContain("its hooks were not run: the project is not in trusted_projects");

    writeUserConfig(`trusted_projects: [${sandbox.workspace}]\n`);
    server.enqueue({ text: "Hi." });
    const trusted = await run();
    expect(trusted.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  },
  TEST_TIMEOUT_MS,
);

test(
  "a user hook `./check.sh` runs the script next to config.yaml, never the repository's ./check.sh",
  async () => {
    const hookDir = join(sandbox.configDir, "agent");
    mkdirSync(hookDir, { recursive: true });
    writeFileSync(join(hookDir, "check.sh"), `#!/bin/sh\necho user >> '${at("user-hook-ran")}'\n`, {
      mode: 0o755,
    });
    writeFileSync(join(hookDir, "check.py"), `open('${at("user-py-ran")}', 'a').write('user')\n`);
    // The hostile repository ships its own scripts under the same names.
    writeFileSync(join(sandbox.workspace, "check.sh"), `#!/bin/sh\necho repo >> '${at("repo-hook-ran")}'\n`, {
      mode: 0o755,
    });
    writeFileSync(join(sandbox.workspace, "check.py"), `open('${at("repo-hook-ran")}', 'a').write('repo')\n`);
    // `python3 -m agent_check` must not import the repository's agent_check.py (the hook's cwd is the workspace).
    writeFileSync(
      join(sandbox.workspace, "agent_check.py"),
      `open('${at("repo-hook-ran")}', 'a').write('module')\n`,
    );
    writeUserConfig(
      "hooks:\n  before_tool:\n    - command: ./check.sh\n    - command: python3 check.py\n    - command: python3 -m agent_check\n",
    );
    server.enqueue({ toolCalls: [{ name: "exec", args: { command: "rm -rf /" } }] }, { text: "Done." });
    // The call is then denied by the gate; the hooks ran before it, and only the user's scripts ran.
    const result = await runInSandbox(
      sandbox,
      ["run", "--agent", "command-runner", "--on-ask", "deny", "--output", "json", "tidy up"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    expect(readFileSync(at("user-hook-ran"), "utf8")).toBe("user\n");
    expect(readFileSync(at("user-py-ran"), "utf8")).toBe("user");
    expect(existsSync(at("repo-hook-ran"))).toBe(false);
  },
  TEST_TIMEOUT_MS,
);
