import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TIER_MODELS } from "../../../../src/llm/resolve.ts";
import { runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";
import { expectJsonShape, HELPER_RESULT_KEYS } from "../../../support/json-shape.ts";

const fx = withFakeServerAndSandbox();
let cwd: string;

beforeAll(async () => {
  cwd = join(fx.sandbox.dir, "work");
  mkdirSync(cwd);
  writeFileSync(join(cwd, "notes.txt"), "the answer is 42\n");
});

function env(): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-tools-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });
}

function helper(args: string[]) {
  return runAgent(["helper", ...args], { env: env(), cwd });
}

/** Tool names offered in a logged Anthropic request. */
function offeredTools(body: unknown): string[] {
  const tools = (body as { tools?: { name: string }[] } | null)?.tools ?? [];
  return tools.map((t) => t.name);
}

const readNotes = { toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] };

describe("agent helper --tools", () => {
  test("read_file: the model reads a file of the cwd and the result reaches the next request", async () => {
    fx.server.enqueue(readNotes, { text: "42" });
    const before = fx.server.requests.length;
    const result = await helper(["--tools", "read_file", "what is the answer in notes.txt?"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("42\n");
    const requests = fx.server.requests.slice(before);
    expect(requests).toHaveLength(2);
    expect(offeredTools(requests[0]?.body)).toEqual(["read_file"]);
    expect(JSON.stringify(requests[1]?.body)).toContain("the answer is 42");
  });

  test("a tool outside the whitelist is refused to the model and never runs", async () => {
    fx.server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "evil.txt", content: "pwned" } }] },
      { text: "could not write" },
    );
    const before = fx.server.requests.length;
    const result = await helper(["--tools", "read_file", "write evil.txt"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("could not write\n");
    expect(existsSync(join(cwd, "evil.txt"))).toBe(false);
    const second = JSON.stringify(fx.server.requests[before + 1]?.body);
    expect(second).toContain("write_file");
    expect(second).toContain("DENIED: this action was not performed: write_file is not available");
    expect(second).toContain("available tools: read_file");
  });

  test("--json: an unlisted primitive (exec) is a whitelist denial, not a stumble (issue 21, item 3)", async () => {
    fx.server.enqueue(
      { toolCalls: [{ name: "exec", args: { command: "echo hi" } }] },
      { text: "I was not allowed to run echo hi." },
    );
    const before = fx.server.requests.length;
    const result = await helper(["--json", "--tools", "read_file,write_file", "run echo hi"]);
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(out.stumbles).toBe(0);
    expect(out.denials).toEqual([
      {
        agent: "root",
        agent_name: "helper",
        tool: "exec",
        target: "echo hi",
        decided_by: "whitelist",
        reason: "not in the helper's --tools list (add exec to --tools to allow it)",
        suggested_allow: [],
      },
    ]);
    expect(out.tool_calls).toEqual([{ agent: "root", tool: "exec", target: "echo hi", outcome: "denied" }]);
    // The model is told it was refused.
    const second = JSON.stringify(fx.server.requests[before + 1]?.body);
    expect(second).toContain(
      "DENIED: this action was not performed: exec is not available in this helper run",
    );
  });

  test("text mode: the refused call is listed on stderr after the answer", async () => {
    fx.server.enqueue(
      { toolCalls: [{ name: "exec", args: { command: "echo hi" } }] },
      { text: "I was not allowed to run echo hi." },
    );
    const result = await helper(["--tools", "read_file,write_file", "run echo hi"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("I was not allowed to run echo hi.\n");
    expect(result.stderr).toContain("✗ 1 action denied (not performed):");
    expect(result.stderr).toContain(
      "helper (root): exec echo hi: not in the helper's --tools list (add exec to --tools to allow it)",
    );
  });

  test("unknown tool names: exit 2 listing the valid primitives, no model call", async () => {
    const before = fx.server.requests.length;
    const result = await helper(["--tools", "read_file,teleport", "hi"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('"teleport"');
    for (const name of ["read_file", "write_file", "exec", "grep", "glob", "fetch"])
      expect(result.stderr).toContain(name);
    expect(fx.server.requests.length).toBe(before);
  });

  test("--max-turns 1 with a model that keeps calling tools: exit 5", async () => {
    fx.server.enqueue(readNotes);
    const before = fx.server.requests.length;
    const result = await helper(["--tools", "read_file", "--max-turns", "1", "loop forever"]);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("--max-turns 1");
    expect(fx.server.requests.length - before).toBe(1);
  });

  test("--max-turns must be a positive whole number (exit 2)", async () => {
    const result = await helper(["--tools", "read_file", "--max-turns", "0", "hi"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--max-turns");
  });

  test("--verbose prints one progress line per tool call on stderr; stdout keeps only the answer", async () => {
    fx.server.enqueue(readNotes, { text: "42" });
    const result = await helper(["--tools", "read_file", "--verbose", "answer?"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("42\n");
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^agent: ✓ read_file .*notes\.txt/);
  });

  test("--json prints the schema-2 result with both turns' tokens, snake_case", async () => {
    fx.server.enqueue(
      { ...readNotes, usage: { input: 10, output: 5 } },
      { text: "42", usage: { input: 20, output: 2 } },
    );
    const result = await helper(["--tools", "read_file", "--json", "answer?"]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(Object.keys(output).sort()).toEqual(HELPER_RESULT_KEYS);
    expect(output).toMatchObject({
      type: "result",
      warnings: [],
      schema_version: 2,
      status: "success",
      exit_code: 0,
      answer: "42",
      provider: "anthropic",
      usage: { input_tokens: 30, output_tokens: 7 },
    });
    expect(output.model).toBe(DEFAULT_TIER_MODELS.fast.anthropic[0]);
    expect(typeof output.usage.cost_usd).toBe("number");
    expectJsonShape(output);
  });

  test("a provider error in the loop exits 4", async () => {
    fx.server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const result = await helper(["--tools", "read_file", "hi"]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("401");
  });
});

describe("agent helper --timeout", () => {
  test("a single call slower than --timeout exits 5", async () => {
    // The model never finishes (headers, then silence), so only --timeout can end this run, however
    // loaded the machine. Under load the timeout may fire before the request is even sent: the turn
    // may stay unserved (dropped after the test, so it never answers the next one).
    fx.server.enqueue({ text: "never", hangAfterEvents: 0 });
    fx.mayLeaveTurns();
    const result = await helper(["--timeout", "0.3", "hi"]);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain("--timeout 0.3s");
  }, 30_000);
});

describe("agent helper --tier auto", () => {
  test("the chosen tier's model is the one called, and the choice is one stderr line", async () => {
    fx.server.enqueue({ text: "a plan" });
    const before = fx.server.requests.length;
    const result = await helper([
      "--tier",
      "auto",
      "Design the architecture of a multi-tenant billing service and weigh the trade-offs",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("a plan\n");
    expect(result.stderr).toMatch(/^agent: --tier auto chose best \(.*asks about architecture.*\)\n$/);
    expect(fx.server.requests[before]?.model).toBe(DEFAULT_TIER_MODELS.best.anthropic[0]);
  });

  test("--model auto classifies the task too, instead of meaning fast", async () => {
    fx.server.enqueue({ text: "a plan" });
    const before = fx.server.requests.length;
    const result = await helper(["--model", "auto", "Design the architecture of a billing service"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("agent: --model auto chose best");
    expect(fx.server.requests[before]?.model).toBe(DEFAULT_TIER_MODELS.best.anthropic[0]);
  });

  test("with no arguments the piped task is what the classifier reads", async () => {
    fx.server.enqueue({ text: "a design" });
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", "--tier", "auto"], {
      env: env(),
      cwd,
      stdin: "Design the architecture of a plugin system\n",
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("--tier auto chose best");
    expect(fx.server.requests[before]?.model).toBe(DEFAULT_TIER_MODELS.best.anthropic[0]);
  });

  test("a simple task stays on fast", async () => {
    fx.server.enqueue({ text: "bonjour" });
    const before = fx.server.requests.length;
    const result = await helper(["--tier", "auto", "Translate 'hello' into French"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("--tier auto chose fast (asks to translate)");
    expect(fx.server.requests[before]?.model).toBe(DEFAULT_TIER_MODELS.fast.anthropic[0]);
  });

  test("a stalled auto run escalates once from the chosen tier to the next", async () => {
    fx.server.enqueue(readNotes, readNotes, readNotes, { text: "escalated answer" });
    const before = fx.server.requests.length;
    const result = await helper(["--tier", "auto", "--tools", "read_file", "what is in notes.txt?"]);
    expect(result.stdout).toBe("escalated answer\n");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("--tier auto chose fast");
    const models = fx.server.requests.slice(before).map((r) => r.model);
    const fast = DEFAULT_TIER_MODELS.fast.anthropic[0] ?? "";
    const good = DEFAULT_TIER_MODELS.good.anthropic[0] ?? "";
    expect(models).toEqual([fast, fast, fast, good]);
  });

  test("the escalated run continues the stalled conversation, and --json says what happened", async () => {
    fx.server.enqueue(readNotes, readNotes, readNotes, { text: "42" });
    const before = fx.server.requests.length;
    const result = await helper(["--json", "--tools", "read_file", "what is in notes.txt?"]);
    expect(result.code).toBe(0);
    const escalated = JSON.stringify(fx.server.requests[before + 3]?.body);
    // Not from scratch: the file content read by the stalled attempt and the stall note are in the request.
    expect(escalated).toContain("the answer is 42");
    expect(escalated).toContain("You are repeating yourself");
    expect(escalated).toContain("now handed to a stronger model");
    const out = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(out.answer).toBe("42");
    expect(out.turns).toBe(4);
    expect(out.stumbles).toBe(0);
    expect(out.denials).toEqual([]);
    expect(out.context_elided).toBe(false);
    expect(out.tool_calls).toEqual([
      { agent: "root", tool: "read_file", target: "notes.txt", outcome: "ok" },
      { agent: "root", tool: "read_file", target: "notes.txt", outcome: "ok" },
    ]);
  });

  test("--json without tools: one turn, no tool calls", async () => {
    fx.server.enqueue({ text: "hello" });
    const result = await helper(["--json", "say hello"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      answer: "hello",
      turns: 1,
      stumbles: 0,
      tool_calls: [],
      denials: [],
      context_elided: false,
    });
  });

  test("--json counts a call to an unknown tool as a stumble", async () => {
    fx.server.enqueue({ toolCalls: [{ name: "teleport", args: { to: "mars" } }] }, { text: "cannot" });
    const result = await helper(["--json", "--tools", "read_file", "go to mars"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      turns: 2,
      stumbles: 1,
      tool_calls: [{ agent: "root", tool: "teleport", target: "", outcome: "stumble" }],
    });
  });
});
