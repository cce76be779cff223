/**
 * Every callable thing shares one pipeline (src/agents/loop/tool-calls/invoke.ts): a primitive, a sub-agent, a spec's
 * `verify:` command and an MCP server's tool (the SDK fixture server over stdio) each go through the same
 * stages. Each trait (approval asked, redaction, truncation,
 * events, hooks) runs the same assertions over every kind of tool.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHookRunner } from "../../../src/agents/hooks/hook-runner.ts";
import type { HooksConfig } from "../../../src/agents/hooks/hooks.ts";
import type { AgentSpec } from "../../../src/agents/spec/spec.ts";
import type { RunAgentOptions } from "../../../src/agents/types.ts";
import type { RunResult } from "../../../src/kernel/index.ts";
import { Redactor } from "../../../src/kernel/text/redact.ts";
import { flagApprover, scriptedApprover } from "../../../src/policy/approvers.ts";
import { ApprovalGate } from "../../../src/policy/gate.ts";
import { buildRuleSet } from "../../../src/policy/rules.ts";
import { McpServers } from "../../../src/tools/mcp/servers.ts";
import { fixtureStdio } from "../../support/mcp-fixture.ts";
import type { ScriptOptions } from "../../support/scripted-provider.ts";
import { type Harness, harness, spec } from "../harness.ts";

/** One kind of tool: a run in which one call of it produces `output`. */
interface Kind {
  kind: "primitive" | "agent" | "verify" | "mcp";
  /** The tool name in events and hook events. */
  tool: string;
  /** The name rules and hooks match, and a rule naming this kind's call. */
  policyName: string;
  rule: string;
  /** The tool an approval request names (the policy name, but an MCP tool's own name). */
  asked?: string;
  /** What the run needs besides its specs (the MCP servers). */
  options?(h: Harness): Partial<RunAgentOptions>;
  specs: AgentSpec[];
  script(output: string): ScriptOptions;
  /** What the model was told of the call (the next request's last tool result or user message). */
  seen(h: Harness): string;
  /** Whether the call itself ran. */
  ran(h: Harness): boolean;
}

/** A command that marks that it ran, then prints the run's output (written to out.txt before the run, so
 * the command line itself never holds it). */
const command = (exit = 0) => `touch ran.marker; cat out.txt; exit ${exit}`;
const markerRan = (h: Harness) => existsSync(join(h.dir, "ran.marker"));

/** The last message of the root's second request (what it was told after the call). */
function lastMessageOfRootRequest(h: Harness, n: number): string {
  const request = h.provider.requests.filter((r) => r.key === "agent:root;")[n]?.request;
  const last = request?.messages.at(-1);
  if (!last) return "";
  return last.role === "assistant" ? "" : last.content;
}

const KINDS: Kind[] = [
  {
    kind: "primitive",
    tool: "exec",
    policyName: "exec",
    rule: "exec:touch *",
    specs: [spec("root", ["exec"])],
    script: () => ({
      agents: {
        "agent:root;": [
          { toolCalls: [{ name: "exec", arguments: { command: command() } }] },
          { text: "done" },
        ],
      },
    }),
    seen: (h) => lastMessageOfRootRequest(h, 1),
    ran: markerRan,
  },
  {
    kind: "agent",
    tool: "worker",
    policyName: "worker",
    rule: "worker",
    specs: [spec("root", ["worker"]), spec("worker", [])],
    script: (output) => ({
      agents: {
        "agent:root;": [{ toolCalls: [{ name: "worker", arguments: { goal: "report" } }] }, { text: "done" }],
        "agent:worker;": [{ text: output }],
      },
    }),
    seen: (h) => lastMessageOfRootRequest(h, 1),
    ran: (h) => h.provider.requests.some((r) => r.key === "agent:worker;"),
  },
  {
    kind: "verify",
    tool: "verify",
    policyName: "exec",
    rule: "exec:touch *",
    // The command fails, so its output reaches the model in the verification message.
    specs: [],
    script: () => ({ agents: { "agent:root;": [{ text: "done" }, { text: "done again" }] } }),
    seen: (h) => lastMessageOfRootRequest(h, 1),
    ran: markerRan,
  },
  {
    kind: "mcp",
    tool: "mcp:fixture/report",
    policyName: "mcp",
    rule: "mcp:fixture/report",
    asked: "mcp:fixture/report",
    specs: [spec("root", ["mcp:fixture/report"])],
    options: (h) => {
      const files = { FIXTURE_OUT_FILE: join(h.dir, "out.txt"), FIXTURE_RAN_FILE: join(h.dir, "ran.marker") };
      const mcp = new McpServers({ fixture: fixtureStdio(files) });
      closers.push(() => mcp.closeAll());
      return { mcp };
    },
    script: () => ({
      agents: {
        "agent:root;": [{ toolCalls: [{ name: "mcp__fixture__report", arguments: {} }] }, { text: "done" }],
      },
    }),
    seen: (h) => lastMessageOfRootRequest(h, 1),
    ran: markerRan,
  },
];

function specsOf(kind: Kind): AgentSpec[] {
  return kind.kind === "verify" ? [spec("root", [], { verify: [command(1)] })] : kind.specs;
}

let h: Harness | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await h?.cleanup();
  h = undefined;
});

async function runKind(
  kind: Kind,
  output: string,
  overrides: (h: Harness) => Partial<RunAgentOptions> = () => ({}),
  approver = flagApprover("allow"),
): Promise<RunResult> {
  h = await harness({ specs: specsOf(kind), script: kind.script(output), approver });
  writeFileSync(join(h.dir, "out.txt"), output);
  return h.run("go", { limits: { maxVerifyAttempts: 2 }, ...kind.options?.(h), ...overrides(h) });
}

function hooksFor(h: Harness, hooks: Partial<HooksConfig>) {
  return createHookRunner({
    hooks: { before_tool: [], after_tool: [], on_stop: [], ...hooks },
    cwd: h.dir,
    sessionId: "test-session",
    emit: (e) => h.events.push(e),
    who: { agent: "root", name: "root", depth: 0 },
    redactor: new Redactor([]),
  });
}

describe.each(KINDS)("a $kind tool goes through the one pipeline", (kind) => {
  test("approval: an ask rule naming it puts the call to the approver; denied, it does not run", async () => {
    const approver = scriptedApprover([{ kind: "deny" }]);
    await runKind(kind, "out", (h) => ({
      gate: new ApprovalGate({
        rules: buildRuleSet({ user: { ask: [kind.rule] } }),
        approver,
        emit: (e) => h.events.push(e),
      }),
    }));
    expect(approver.requests.map((r) => r.tool)).toEqual([kind.asked ?? kind.policyName]);
    expect(h?.of("approval_request")).toHaveLength(1);
    expect(kind.ran(h as Harness)).toBe(false);
  });

  test("redaction: a secret in its output never reaches the model", async () => {
    const secret = "s3cr3t-value-for-kinds";
    await runKind(kind, `key=${secret}`, () => ({ redactor: new Redactor([secret]) }));
    const seen = kind.seen(h as Harness);
    expect(seen).toContain("key=[REDACTED]");
    expect(seen).not.toContain(secret);
  });

  test("truncation: output past the limit is cut with a note", async () => {
    await runKind(kind, "x".repeat(1000), () => ({ limits: { toolOutputChars: 200, maxVerifyAttempts: 2 } }));
    const seen = kind.seen(h as Harness);
    expect(seen).toContain(`${"x".repeat(200)}\n\n[output truncated: `);
    expect(seen).not.toContain("x".repeat(201));
  });

  test("events: tool_start and tool_end with one id, the tool's name and kind", async () => {
    await runKind(kind, "out");
    const starts = (h as Harness).of("tool_start").filter((e) => e.data.tool === kind.tool);
    const ends = (h as Harness).of("tool_end").filter((e) => e.data.tool === kind.tool);
    expect(starts.length).toBeGreaterThan(0);
    expect(ends.map((e) => e.data.id)).toEqual(starts.map((e) => e.data.id));
    const expectedKind = kind.kind === "primitive" ? undefined : kind.kind;
    expect(starts[0]?.data.kind).toBe(expectedKind);
    expect(ends[0]?.data.kind).toBe(expectedKind);
  });

  test("hooks: a before_tool hook that exits 2 blocks the call with its reason", async () => {
    const result = await runKind(kind, "out", (h) => ({
      hooks: hooksFor(h, { before_tool: [{ match: kind.rule, command: "echo 'not today' >&2; exit 2" }] }),
    }));
    expect(kind.ran(h as Harness)).toBe(false);
    const told = kind.kind === "verify" ? (result.error?.message ?? "") : kind.seen(h as Harness);
    expect(told).toContain("not today");
  });

  test("hooks: an after_tool hook gets the call and its result", async () => {
    await runKind(kind, "visible-output", (h) => ({
      hooks: hooksFor(h, { after_tool: [{ match: kind.policyName, command: "cat > after.json" }] }),
    }));
    const event = JSON.parse(readFileSync(join((h as Harness).dir, "after.json"), "utf8"));
    expect(event).toMatchObject({
      hook_event_name: "after_tool",
      tool_name: kind.tool,
      target: kind.policyName,
    });
    expect(event.tool_response.text).toContain("visible-output");
  });
});
