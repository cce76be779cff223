/**
 * The README's "In CI" shell example, extracted from README.md and run as written (sh, jq, `agent` on
 * PATH as bin/agent) in a copy of the demo workspace, against the fake server scripted as a model that
 * checks its work: the root agent delegates, code-editor edits greet.js and then runs a `node -e` check.
 * The example must let that run finish (exit 0, the answer on stdout), keep the agent's own exit code
 * (no shell mapping every failure to 1), and print each message once.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { AGENT_BIN } from "../../cli/run-agent.ts";
import { type FakeLlmServer, type FakeTurn, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { processOutput } from "../../support/process-output.ts";
import { anthropicEnv, type E2eSandbox, makeE2eSandbox } from "../support.ts";

setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, "../../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const GREET = `export function greet(name) {\n  return \`Hello, \${name}!\`;\n}`;
const FAREWELL = `export function farewell(name) {\n  return \`Goodbye, \${name}!\`;\n}`;
const CHECK = `node -e "import('./greet.js').then(m => console.log(m.farewell('Ada')))"`;

/** The sh block under "## In CI". */
function ciExample(): string {
  const section = README.slice(README.indexOf("## In CI"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error("README.md: no sh block under ## In CI");
  return block;
}

let server: FakeLlmServer;
let sandbox: E2eSandbox;
beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
  cpSync(join(ROOT, "examples/demo/workspace"), sandbox.workspace, { recursive: true });
});
afterEach(async () => {
  await server.close();
  sandbox.cleanup();
});

/** Runs the README's example in the workspace, with `agent` on PATH. */
async function runExample() {
  const bin = join(sandbox.dir, "bin");
  mkdirSync(bin);
  symlinkSync(AGENT_BIN, join(bin, "agent"));
  const env = anthropicEnv(sandbox, server);
  const proc = Bun.spawn(["sh", "-c", ciExample()], {
    cwd: sandbox.workspace,
    env: { ...env, PATH: `${bin}:${env.PATH}` },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return processOutput(proc);
}

/** The model: root delegates to code-editor, which edits greet.js, checks it with node, and both answer. */
const CHECKING_MODEL: FakeTurn[] = [
  { toolCalls: [{ name: "code-editor", args: { goal: "add farewell(name) to greet.js and check it" } }] },
  {
    toolCalls: [
      {
        name: "edit_file",
        args: { path: "greet.js", old_string: GREET, new_string: `${GREET}\n\n${FAREWELL}` },
      },
    ],
  },
  { toolCalls: [{ name: "exec", args: { command: CHECK } }] },
  { text: "Added farewell(name); node printed Goodbye, Ada!" },
  { text: "Done: greet.js has farewell(name), checked with node." },
];

describe("the README's CI example", () => {
  test("a model that edits and then checks its work: exit 0, the answer on stdout", async () => {
    server.enqueue(...CHECKING_MODEL);
    const result = await runExample();
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("Done: greet.js has farewell(name), checked with node.\n");
    expect(result.code).toBe(0);
    expect(readFileSync(join(sandbox.workspace, "greet.js"), "utf8")).toContain(FAREWELL);
    expect(server.requests).toHaveLength(5);
  });
});

/** How many times `text` occurs in `within`. */
const count = (within: string, text: string) => within.split(text).length - 1;

describe("the README's CI example when the run does not succeed", () => {
  test("a command it does not allow is denied: reported on stderr (once each), in denials, exit 0", async () => {
    server.enqueue(
      { toolCalls: [{ name: "command-runner", args: { goal: "run the tests" } }] },
      { toolCalls: [{ name: "exec", args: { command: "npm test" } }] },
      { text: "npm test was denied." },
      { text: "I could not run the tests: npm test was denied." },
    );
    const result = await runExample();
    expect(result.code).toBe(0);
    // The live line, then the summary with the rule that would allow it: each once.
    expect(count(result.stderr, "denied exec $ npm test")).toBe(1);
    expect(count(result.stderr, "1 action denied")).toBe(1);
    expect(count(result.stderr, "--allow 'exec:npm test *'")).toBe(1);
    expect(JSON.parse(readFileSync(join(sandbox.workspace, "result.json"), "utf8")).denials).toHaveLength(1);
  });

  test("a provider error keeps its documented exit code (4), its message printed once", async () => {
    server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const result = await runExample();
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    expect(count(result.stderr, "invalid x-api-key")).toBe(1);
  });
});

describe("--on-ask fail ending a run inside a sub-agent", () => {
  test("the approval message is printed once on stderr; exit 6", async () => {
    // The run ends at the check's approval: the first three turns are asked for.
    server.enqueue(...CHECKING_MODEL.slice(0, 3));
    const proc = Bun.spawn(
      [
        AGENT_BIN,
        "run",
        "add farewell and check it",
        "-o",
        "json",
        "--on-ask",
        "fail",
        "--allow",
        "edit_file:greet.js",
      ],
      {
        cwd: sandbox.workspace,
        env: anthropicEnv(sandbox, server),
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const result = await processOutput(proc);
    expect(result.code).toBe(6);
    expect(count(result.stderr, "approval needed for exec")).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "error", exit_code: 6 });
  });
});
