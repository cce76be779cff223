/**
 * Suggested rules paste as printed, and `--on-ask fail` names what it stopped at. bin/agent without a TTY
 * against the fake server (Anthropic wire, real SDK):
 * - a denied `node -e "import('./greet.js')…"` suggests the rule for exactly that command, written as
 *   people write it (`exec:node -e "import('./greet.js')…"`, never the whole interpreter `exec:node -e *`)
 *   in `suggested_allow`, and `to allow: --allow '…'` on stderr; the printed words, pasted into a real
 *   bash command line that runs the same goal again, let the command run;
 * - `--on-ask fail` at an edit names the file (greet.js), never the diff header (`--- a/greet.js`), and
 *   the rule that would let it through.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { allowFlag } from "../../../src/policy/shell-quote.ts";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import {
  AGENT_BIN,
  anthropicEnv,
  type E2eSandbox,
  freshServerAndSandbox,
  parseJsonLines,
  runAgentIn,
  toolResultsOf,
} from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const COMMAND = `node -e "import('./greet.js').then(m=>console.log(m.greet('x')))"`;

function commandTurns(): FakeTurn[] {
  return [
    { toolCalls: [{ name: "command-runner", args: { goal: "print greet('x')" } }] },
    { toolCalls: [{ name: "exec", args: { command: COMMAND } }] },
    { text: "Ran it." },
    { text: "Done." },
  ];
}

test("a denied node -e command: the printed --allow words, pasted into bash, let it run", async () => {
  writeFileSync(join(sandbox.workspace, "greet.js"), 'export const greet = (n) => "hi " + n;\n');
  const env = anthropicEnv(sandbox, server);
  server.enqueue(...commandTurns());
  const denied = await runAgentIn(sandbox, ["run", "greet x", "-o", "json"], env);
  expect(denied.code).toBe(0);
  const [record] = parseJsonLines(denied.stdout);
  expect(record?.denials).toMatchObject([
    { tool: "exec", target: COMMAND, suggested_allow: [`exec:${COMMAND}`] },
  ]);

  server.enqueue(...commandTurns());
  const text = await runAgentIn(sandbox, ["run", "greet x"], env);
  const line = text.stderr.split("\n").find((l) => l.includes("to allow: ")) ?? "";
  const printed = line.slice(line.indexOf("to allow: ") + "to allow: ".length);
  expect(printed).toBe(allowFlag(`exec:${COMMAND}`));
  expect(printed).not.toContain("-e *");

  // Pasted as printed into a shell command line: the command now runs.
  server.enqueue(...commandTurns());
  const first = server.requests.length;
  const proc = Bun.spawn(["bash", "--norc", "-c", `exec "$0" run 'greet x' -o json ${printed}`, AGENT_BIN], {
    env,
    cwd: sandbox.workspace,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  const [allowed] = parseJsonLines(stdout);
  expect(allowed?.denials).toEqual([]);
  expect(toolResultsOf(server.requests[first + 2]).join("\n")).toContain("hi x");
});

test("--on-ask fail at an edit names greet.js, not a diff header, and the rule to allow it", async () => {
  writeFileSync(join(sandbox.workspace, "greet.js"), "hello\n");
  server.enqueue(
    { toolCalls: [{ name: "code-editor", args: { goal: "add farewell" } }] },
    {
      text: "Editing.",
      toolCalls: [{ name: "edit_file", args: { path: "greet.js", old_string: "hello", new_string: "bye" } }],
    },
  );
  const result = await runAgentIn(
    sandbox,
    ["run", "add farewell", "--on-ask", "fail", "-o", "json"],
    anthropicEnv(sandbox, server),
  );
  expect(result.code).toBe(6);
  const [record] = parseJsonLines(result.stdout);
  const message = String((record?.error as { message?: unknown } | undefined)?.message);
  expect(message).toContain("approval needed for edit_file (greet.js) and --on-ask is fail");
  expect(message).toContain("to allow it: --allow edit_file:greet.js");
  expect(message).not.toContain("--- a/");
  expect(readFileSync(join(sandbox.workspace, "greet.js"), "utf8")).toBe("hello\n");
});
