/**
 * A CI run whose every write and command is denied (no terminal, default --on-ask deny): the result lists
 * each denial with who decided and the --allow rule that would have let it through, in JSON and in the
 * text summary; the model is told plainly that nothing happened. bin/agent without a TTY against the fake
 * server (real Anthropic SDK and adapter).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  freshServerAndSandbox,
  parseJsonLines,
  runAgentIn,
  sessionIds,
  toolResultsOf,
} from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

/** root delegates to code-editor, which writes hello.py and runs it (one response), then both answer. */
function deniedTurns(): FakeTurn[] {
  return [
    { toolCalls: [{ name: "code-editor", args: { goal: "Create hello.py printing hello and run it" } }] },
    {
      toolCalls: [
        { name: "write_file", args: { path: "hello.py", content: "print('hello')\n" } },
        { name: "exec", args: { command: "python3 hello.py && ls" } },
      ],
    },
    { text: "Neither the file nor the command was allowed." },
    { text: "Nothing was created: the write and the command were denied." },
  ];
}

async function run(args: string[]) {
  const first = server.requests.length;
  const result = await runAgentIn(sandbox, args, anthropicEnv(sandbox, server));
  return { ...result, requests: server.requests.slice(first) };
}

describe("denials are reported", () => {
  test("--output json: every denied call with who decided and the --allow rule that would let it through", async () => {
    server.enqueue(...deniedTurns());
    const result = await run(["run", "Create hello.py and run it", "--output", "json"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(sandbox.workspace, "hello.py"))).toBe(false);
    const [record] = parseJsonLines(result.stdout);
    expect(record).toMatchObject({ status: "success", finish_reason: "stop", exit_code: 0 });
    expect(record?.denials).toEqual([
      {
        agent: "root/code-editor#1",
        agent_name: "code-editor",
        tool: "write_file",
        target: "hello.py",
        decided_by: "default",
        reason: "it needs approval and no terminal can ask; without one the default is --on-ask deny",
        suggested_allow: ["write_file:hello.py"],
      },
      {
        agent: "root/code-editor#1",
        agent_name: "code-editor",
        tool: "exec",
        target: "python3 hello.py && ls",
        decided_by: "default",
        reason: "it needs approval and no terminal can ask; without one the default is --on-ask deny",
        // `ls` is allowed by default: only the part that needs a rule is suggested.
        suggested_allow: ["exec:python3 hello.py"],
      },
    ]);
    expect(record?.tool_calls).toEqual([
      {
        agent: "root/code-editor#1",
        tool: "write_file",
        target: "hello.py",
        outcome: "denied",
      },
      {
        agent: "root/code-editor#1",
        tool: "exec",
        target: "python3 hello.py && ls",
        outcome: "denied",
      },
      {
        agent: "root",
        tool: "code-editor",
        target: "Create hello.py printing hello and run it",
        outcome: "ok",
      },
    ]);
    expect(record?.turns).toBe(4);
    expect(record?.stumbles).toBe(0);
    expect(record?.context_elided).toBe(false);
    // The model was told plainly that nothing happened, and what would allow it.
    const told = toolResultsOf(result.requests[2]);
    expect(told).toHaveLength(2);
    for (const text of told) expect(text).toContain("DENIED: this action was not performed");
    expect(told[0]).toContain("--allow 'write_file:hello.py'");
    expect(told[1]).toContain("--allow 'exec:python3 hello.py'");
  });

  test("text mode: the summary on stderr lists the denials and the final line says they did not happen", async () => {
    server.enqueue(...deniedTurns());
    const result = await run(["run", "Create hello.py and run it"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Nothing was created: the write and the command were denied.\n");
    expect(result.stderr).toContain("✗ 2 actions denied (not performed):");
    // The progress line names the missing terminal, not a flag the user never gave.
    expect(result.stderr).toContain("✗ denied write_file hello.py (by default: no terminal to ask)");
    expect(result.stderr).not.toContain("(by --on-ask)");
    expect(result.stderr).toContain(
      "code-editor (root/code-editor#1): write_file hello.py: it needs approval and no terminal can ask",
    );
    expect(result.stderr).toContain("to allow: --allow write_file:hello.py\n");
    expect(result.stderr).toContain("to allow: --allow 'exec:python3 hello.py'");
    const last = result.stderr.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toContain("success (stop)");
    expect(last).toContain("2 actions denied, not done");
  });

  test("sessions show labels each decision as the live run did (issue 21, item 9)", async () => {
    mkdirSync(join(sandbox.workspace, ".agent"));
    writeFileSync(join(sandbox.workspace, ".agent", "config.yaml"), "rules:\n  deny: ['exec:python3 *']\n");
    server.enqueue(...deniedTurns());
    const live = await run(["run", "Create hello.py and run it"]);
    expect(live.code).toBe(0);
    const liveLines = live.stderr
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line.startsWith("✗ denied"));
    expect(liveLines).toHaveLength(2);
    expect(liveLines[0]).toBe("✗ denied write_file hello.py (by default: no terminal to ask)");
    expect(liveLines[1]).toEndWith("(by rule exec:python3 *)");
    const [id] = sessionIds(sandbox);
    const shown = await runAgentIn(
      sandbox,
      ["sessions", "show", id ?? "none"],
      anthropicEnv(sandbox, server),
    );
    expect(shown.code).toBe(0);
    // The same `by …` as live; the transcript names the call by its target.
    expect(shown.stdout).toContain("✗ denied write_file hello.py (by default: no terminal to ask)");
    // A rule decides without a prompt (no request to name the call): the label is the same all the same.
    expect(shown.stdout).toMatch(/✗ denied.* \(by rule exec:python3 \*\)/);
    expect(shown.stdout).not.toContain("by flag");
  });

  test("an explicit --on-ask deny and a deny rule are named as such", async () => {
    mkdirSync(join(sandbox.workspace, ".agent"));
    writeFileSync(join(sandbox.workspace, ".agent", "config.yaml"), "rules:\n  deny: ['exec:python3 *']\n");
    server.enqueue(...deniedTurns());
    const result = await run(["run", "Create hello.py and run it", "--on-ask", "deny", "--output", "json"]);
    expect(result.code).toBe(0);
    const [record] = parseJsonLines(result.stdout);
    expect(record?.denials).toMatchObject([
      { tool: "write_file", decided_by: "on_ask", suggested_allow: ["write_file:hello.py"] },
      { tool: "exec", decided_by: "rule", rule: "exec:python3 *", suggested_allow: [] },
    ]);
    expect(result.stderr).toContain("remove or narrow the deny rule exec:python3 * to allow it");
    // The rule is the project's, not the user's: the reason says which file holds it.
    expect(result.stderr).toContain(
      "the policy denies it: deny rule exec:python3 * of the project's .agent/config.yaml;",
    );
  });
});
