/**
 * What a refreshed catalog and the catalog's retirement dates do to a run, driven as a user drives
 * `agent run` (in the test process, ../run/in-process.ts) against the fake Anthropic endpoint:
 * - a refreshed catalog that prices the model at $0 leaves `--max-budget-usd` stopping the run as before;
 * - a model with no known price is counted at the stated conservative price, and the run says so;
 * - a model past its shutdown is not sent: exit 3 naming the replacement, unless the user overrides;
 * - the Anthropic SDK's own deprecation print is replaced by our one warning.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resetCatalog } from "../../../src/llm/catalog/store.ts";
import { anthropicEnv } from "../../e2e/support.ts";
import type { FakeTurn } from "../../support/fake-llm-server.ts";
import { inProcessFixture } from "../run/in-process.ts";

const agent = inProcessFixture();

/** The root thinks aloud and delegates: 5000 input + 500 output tokens, $0.06 at Fable 5.2's $8/$40. */
const SPENDING_TURN: FakeTurn = {
  text: "Looking at the files first.",
  toolCalls: [{ name: "code-reader", args: { goal: "list the files" } }],
  usage: { input: 5000, output: 500 },
};

let cacheHome: string;
let previousCache: string | undefined;

beforeEach(() => {
  previousCache = process.env.XDG_CACHE_HOME;
  cacheHome = mkdtempSync(join(tmpdir(), "agent-catalog-data-"));
  // The catalog reads the cached refresh under $XDG_CACHE_HOME of the process (store.ts).
  process.env.XDG_CACHE_HOME = cacheHome;
  resetCatalog();
});

afterEach(() => {
  if (previousCache === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = previousCache;
  rmSync(cacheHome, { recursive: true, force: true });
  resetCatalog();
});

/** A cached refresh (the file `agent models --refresh` writes) newer than the snapshot and every override. */
function writeRefreshedCatalog(models: unknown[]): void {
  mkdirSync(join(cacheHome, "agent"), { recursive: true });
  writeFileSync(
    join(cacheHome, "agent", "models.json"),
    JSON.stringify({ source: "https://models.dev/api.json", date: "2026-12-31", models }),
  );
}

function freeModel(id: string, name: string) {
  return {
    id,
    provider: "anthropic",
    name,
    context: 1_000_000,
    output: 128_000,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    reasoning: true,
    toolCall: true,
  };
}

describe("budgets never switched off by data", () => {
  test("a refreshed catalog pricing the model at $0: --max-budget-usd 0.05 still stops the run after the first turn", async () => {
    writeRefreshedCatalog([freeModel("claude-fable-5-2", "Claude Fable 5.2")]);
    agent.server.enqueue(SPENDING_TURN);
    const result = await agent.run([
      "run",
      "--max-budget-usd",
      "0.05",
      "--output",
      "json",
      "inspect the files",
    ]);
    expect(result.code).toBe(5);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ status: "limit", finish_reason: "budget", exit_code: 5 });
    // Billed at the cited $8/$40, not the refreshed $0.
    expect(record.usage.cost_usd).toBeCloseTo((5000 * 8 + 500 * 40) / 1e6, 6);
    expect(result.requests).toHaveLength(1);
  });

  test("a refreshed $0 price for a model only models.dev prices keeps the snapshot's price", async () => {
    writeRefreshedCatalog([freeModel("claude-opus-4-8", "Claude Opus 4.8")]);
    agent.server.enqueue({ ...SPENDING_TURN, usage: { input: 9000, output: 1000 } });
    const result = await agent.run([
      "run",
      "-m",
      "anthropic:claude-opus-4-8",
      "--max-budget-usd",
      "0.05",
      "--output",
      "json",
      "inspect the files",
    ]);
    expect(result.code).toBe(5);
    // The snapshot's $5/$25.
    expect(JSON.parse(result.stdout).usage.cost_usd).toBeCloseTo((9000 * 5 + 1000 * 25) / 1e6, 6);
    expect(result.stderr).not.toContain("no known price");
  });

  test("a model with no known price counts at the stated conservative price and says so once", async () => {
    agent.server.enqueue(SPENDING_TURN);
    const result = await agent.run([
      "run",
      "-m",
      "anthropic:claude-nonesuch-9",
      "--max-budget-usd",
      "0.05",
      "--output",
      "json",
      "inspect the files",
    ]);
    expect(result.code).toBe(5);
    const record = JSON.parse(result.stdout);
    expect(record.usage.cost_usd).toBeCloseTo((5000 * 10 + 500 * 50) / 1e6, 6);
    const line =
      "no known price for claude-nonesuch-9: costs and --max-budget-usd count it at $10/$50 per million input/output tokens (a conservative default)";
    expect(result.stderr.split(line)).toHaveLength(2);
    expect(record.warnings.map((w: { code: string }) => w.code)).toContain("price_unknown");
  });
});

describe("retired models", () => {
  test("a model past its shutdown is not sent: exit 3, the error names the replacement and the way around", async () => {
    const result = await agent.run(["run", "-m", "anthropic:claude-opus-4-0", "--output", "json", "hello"]);
    expect(result.code).toBe(3);
    expect(result.requests).toHaveLength(0);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ status: "error", exit_code: 3 });
    expect(record.error.message).toBe(
      "claude-opus-4-0 was shut down by anthropic on 2026-06-15, so the request was not sent; use claude-opus-4-8 instead (set AGENT_ALLOW_RETIRED_MODELS=1 to send it anyway)",
    );
  });

  test("its dated snapshot is refused the same way", async () => {
    const result = await agent.run(["run", "-m", "anthropic:claude-opus-4-20250514", "hello"]);
    expect(result.code).toBe(3);
    expect(result.requests).toHaveLength(0);
    expect(result.stderr).toContain("use claude-opus-4-8 instead");
  });

  test("AGENT_ALLOW_RETIRED_MODELS=1 sends it anyway, with the retirement warning", async () => {
    const { server, sandbox } = agent;
    server.enqueue({ text: "still here" });
    const result = await agent.run(
      ["run", "-m", "anthropic:claude-opus-4-0", "hello"],
      anthropicEnv(sandbox, server, { AGENT_ALLOW_RETIRED_MODELS: "1" }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("still here\n");
    expect(result.requests).toHaveLength(1);
    expect(result.stderr).toContain(
      "claude-opus-4-0 was shut down on 2026-06-15; use claude-opus-4-8 instead",
    );
  });
});

describe("the Anthropic SDK's own deprecation print", () => {
  test("a model on the SDK's list prints our one warning and not the SDK's three lines", async () => {
    const { server, sandbox } = agent;
    server.enqueue({ text: "hi" });
    const printed: string[] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => {
      printed.push(args.map(String).join(" "));
    };
    try {
      // claude-sonnet-4-5 is on the installed SDK's list (internal/data/deprecated-models); the
      // override lets the run send it whatever today's date is.
      const result = await agent.run(
        ["run", "-m", "anthropic:claude-sonnet-4-5", "hello"],
        anthropicEnv(sandbox, server, { AGENT_ALLOW_RETIRED_MODELS: "1" }),
      );
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("claude-sonnet-4-5");
    } finally {
      console.warn = original;
    }
    expect(printed.join("\n")).not.toContain("is deprecated and will reach end-of-life");
  });
});
