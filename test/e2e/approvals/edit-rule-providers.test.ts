// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the workspace file is JavaScript with template literals
/**
 * One rule for file edits on every model: the README's CI command
 * `agent run "add farewell" --allow 'edit_file:**' -o json`, unchanged, in a workspace holding greet.js,
 * against each wire protocol of the fake server with a scripted model that edits through its family's
 * tool (Claude and Gemini: edit_file; GPT over Responses: apply_patch; a local model on an
 * OpenAI-compatible server: edit_file). The file is changed on all four and nothing is denied.
 * bin/agent without a TTY (so nothing can be asked: a call the rule did not cover would be denied).
 */
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeProtocol, FakeTurn } from "../../support/fake-llm-server.ts";
import { anthropicEnv, freshServerAndSandbox, parseJsonLines, runAgentIn } from "../support.ts";

const e2e = freshServerAndSandbox();

const GREET = "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n";
const FAREWELL = "export function farewell(name) {\n  return `Goodbye, ${name}!`;\n}\n";
const EDIT_ARGS = { path: "greet.js", old_string: GREET, new_string: `${GREET}\n${FAREWELL}` };
const PATCH = [
  "*** Begin Patch",
  "*** Update File: greet.js",
  "@@",
  "   return `Hello, ${name}!`;",
  " }",
  "+",
  ...FAREWELL.trimEnd()
    .split("\n")
    .map((line) => `+${line}`),
  "*** End Patch",
].join("\n");

interface Wire {
  name: string;
  protocol: FakeProtocol;
  edit: FakeTurn["toolCalls"];
  env: () => Record<string, string>;
}

const WIRES: Wire[] = [
  {
    name: "Anthropic Messages (claude, edit_file)",
    protocol: "anthropic",
    edit: [{ name: "edit_file", args: EDIT_ARGS }],
    env: () => anthropicEnv(e2e.sandbox, e2e.server),
  },
  {
    name: "OpenAI Responses (gpt, apply_patch)",
    protocol: "openai-responses",
    edit: [{ name: "apply_patch", args: { patch: PATCH } }],
    env: () =>
      e2e.sandbox.env({
        OPENAI_API_KEY: "sk-test-edit-rule-0000001",
        OPENAI_BASE_URL: e2e.server.openaiBaseUrl,
      }),
  },
  {
    name: "Gemini (gemini, edit_file)",
    protocol: "gemini",
    edit: [{ name: "edit_file", args: EDIT_ARGS }],
    env: () =>
      e2e.sandbox.env({
        GEMINI_API_KEY: "gemini-test-edit-rule-01",
        GOOGLE_GEMINI_BASE_URL: e2e.server.geminiBaseUrl,
      }),
  },
  {
    name: "an OpenAI-compatible server (local model, edit_file)",
    protocol: "openai",
    edit: [{ name: "edit_file", args: EDIT_ARGS }],
    env: () => {
      mkdirSync(join(e2e.sandbox.configDir, "agent"), { recursive: true });
      writeFileSync(
        join(e2e.sandbox.configDir, "agent", "config.yaml"),
        `providers:\n  ollama:\n    kind: openai-compatible\n    base_url: ${e2e.server.openaiBaseUrl}\n` +
          "models:\n  fast: ollama:llama3.2\n  good: ollama:llama3.2\n  best: ollama:llama3.2\n",
      );
      return e2e.sandbox.env();
    },
  },
];

test.each(WIRES)("agent run --allow 'edit_file:**' changes greet.js over $name", async (wire) => {
  writeFileSync(join(e2e.sandbox.workspace, "greet.js"), GREET);
  const env = wire.env();
  const p = wire.protocol;
  e2e.server.enqueue(
    {
      protocol: p,
      toolCalls: [{ name: "code-editor", args: { goal: "add a farewell function to greet.js" } }],
    },
    { protocol: p, toolCalls: wire.edit },
    { protocol: p, text: "Added farewell to greet.js." },
    { protocol: p, text: "Added farewell." },
  );
  const first = e2e.server.requests.length;
  const result = await runAgentIn(
    e2e.sandbox,
    ["run", "add farewell", "--allow", "edit_file:**", "-o", "json"],
    env,
  );
  const requests = e2e.server.requests.slice(first);
  expect(requests.every((r) => r.protocol === p)).toBe(true);
  const [record] = parseJsonLines(result.stdout);
  expect(record).toMatchObject({ status: "success", exit_code: 0, denials: [] });
  expect(result.code).toBe(0);
  expect(readFileSync(join(e2e.sandbox.workspace, "greet.js"), "utf8")).toBe(`${GREET}\n${FAREWELL}`);
});
