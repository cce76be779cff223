/**
 * An MCP server's form on a real terminal (tmux): bin/agent runs the real
 * `@modelcontextprotocol/server-everything` over stdio (through the logging tap), the model calls its
 * `trigger-elicitation-request` tool, the form shows on screen pre-filled with the schema defaults, the
 * person types the one required field and presses Enter on each field; the server answers with the values
 * it received, which reach the model's next request. Ctrl-C while the form is open answers `cancel`; off a
 * terminal the same form is declined at once. The open form notifies the terminal (OSC 9) once.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { EVERYTHING, STDIO_TAP, sentMessages } from "../../support/mcp-everything.ts";
import { anthropicEnv, type E2eSandbox, makeE2eSandbox, runAgentIn } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
beforeEach(async () => {
  server = await startFakeLlmServer();
});
afterEach(async () => {
  await server.close();
});

const TOOL = "mcp__everything__trigger-elicitation-request";
/** The form's fields in order, by the titles server-everything gives them (its trigger-elicitation-request.js). */
const LABELS = [
  "String\\*",
  "Boolean",
  "String with default",
  "String with email format",
  "String with uri format",
  "String with date format",
  "Integer",
  "Number in range 1-1000",
  "Untitled Single Select Enum",
  "Untitled Multiple Select Enum",
  "Titled Single Select Enum",
  "Titled Multiple Select Enum",
  "Legacy Titled Single Select Enum",
];

function prepare(sandbox: E2eSandbox): void {
  const dir = join(sandbox.configDir, "agent");
  mkdirSync(join(dir, "agents"), { recursive: true });
  const args = [
    STDIO_TAP,
    join(sandbox.dir, "mcp-sent.jsonl"),
    Bun.which("node") ?? "node",
    EVERYTHING,
    "stdio",
  ];
  writeFileSync(
    join(dir, "config.yaml"),
    `mcp_servers:\n  everything:\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify(args)}\n    startup_timeout_ms: 60000\n`,
  );
  writeFileSync(
    join(dir, "agents", "mcp-user.yaml"),
    `name: mcp-user\ndescription: uses MCP tools\nsystem_prompt: Use the tools.\ncapabilities: ["mcp:everything/trigger-elicitation-request"]\n`,
  );
}

const FLAGS = ["--agent", "mcp-user", "--allow", "mcp:everything/trigger-elicitation-request"];

/** What the client answered the server's elicitation/create, from the tap's log. */
function elicitAnswers(sandbox: E2eSandbox): unknown[] {
  return sentMessages(join(sandbox.dir, "mcp-sent.jsonl"))
    .map((m) => (m as { result?: { action?: string } }).result)
    .filter((r) => r?.action !== undefined);
}

describe("an MCP server's form", () => {
  test(
    "on a terminal: shown pre-filled; the name typed and Enter on each field accept it; the server replies with the values",
    async () => {
      server.enqueue({ toolCalls: [{ name: TOOL, args: {} }] }, { text: "The form was filled." });
      await withTerminal(["run", "ask me", ...FLAGS], { server, prepare }, async (run) => {
        const form = await run.waitForScreen(/asks you to fill in a form/, "the form");
        expect(form).toContain("MCP server everything asks you to fill in a form");
        expect(form).toContain("Please provide inputs for the following fields:");
        expect(form).toContain("String with default: It was a dark and stormy night.");
        expect(form).toContain("Integer (integer 1–100): 42");
        expect(form).toContain("Untitled Single Select Enum: ‹ Monica ›");
        run.type("Ada");
        await run.waitForScreen(/String\*: Ada/, "the typed name");
        for (const next of LABELS.slice(1)) {
          run.press("Enter");
          await run.waitForScreen(new RegExp(`› ${next}`), `focus on ${next}`);
        }
        expect(await run.exitAfter("Enter")).toBe(0);
        const reply = JSON.stringify(server.requests.at(-1)?.body);
        expect(reply).toContain("User provided the requested information!");
        expect(reply).toContain('\\"name\\": \\"Ada\\"');
        expect(reply).toContain('\\"integer\\": 42');
        expect(reply).toContain('\\"untitledSingleSelectEnum\\": \\"Monica\\"');
        expect(elicitAnswers(run.sandbox)).toMatchObject([
          { action: "accept", content: { name: "Ada", check: false } },
        ]);
      });
    },
    TEST_TIMEOUT_MS * 2,
  );

  test(
    "on a terminal, Ctrl-C while the form is open interrupts the run (exit 130) and the server gets cancel",
    async () => {
      server.enqueue({ toolCalls: [{ name: TOOL, args: {} }] });
      await withTerminal(["run", "ask me", ...FLAGS], { server, prepare }, async (run) => {
        await run.waitForScreen(/asks you to fill in a form/, "the form");
        expect(await run.exitAfter("C-c")).toBe(130);
        expect(elicitAnswers(run.sandbox)).toEqual([{ action: "cancel" }]);
      });
    },
    TEST_TIMEOUT_MS * 2,
  );

  test(
    "on a terminal, the open form notifies the terminal once (OSC 9 naming the server)",
    async () => {
      server.enqueue({ toolCalls: [{ name: TOOL, args: {} }] });
      const raw = join(mkdtempSync(join(tmpdir(), "agent-osc9-")), "raw.out");
      const options = { server, prepare, rawOutput: raw, env: { TERM_PROGRAM: "WezTerm" } };
      await withTerminal(["run", "ask me", ...FLAGS], options, async (run) => {
        await run.waitForScreen(/asks you to fill in a form/, "the form");
        expect(await run.exitAfter("C-c")).toBe(130);
        const bytes = readFileSync(raw, "latin1");
        expect(bytes.split("\x1b]9;").length - 1).toBe(1);
        expect(bytes).toContain("\x1b]9;MCP server everything asks for input: ");
      });
      rmSync(dirname(raw), { recursive: true, force: true });
    },
    TEST_TIMEOUT_MS * 2,
  );

  test(
    "off a terminal: declined at once, and the server says so",
    async () => {
      const sandbox = makeE2eSandbox();
      try {
        prepare(sandbox);
        server.enqueue({ toolCalls: [{ name: TOOL, args: {} }] }, { text: "Declined." });
        const result = await runAgentIn(sandbox, ["run", "ask me", ...FLAGS], anthropicEnv(sandbox, server));
        expect(result.code).toBe(0);
        expect(JSON.stringify(server.requests.at(-1)?.body)).toContain(
          "User declined to provide the requested information.",
        );
        expect(elicitAnswers(sandbox)).toEqual([{ action: "decline" }]);
      } finally {
        sandbox.cleanup();
      }
    },
    TEST_TIMEOUT_MS * 2,
  );
});
