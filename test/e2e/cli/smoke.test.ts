/** `bun run smoke` (scripts/smoke.ts) offline: dummy keys, base URLs at the fake server. */
import { beforeEach, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { SMOKE_WORD } from "../../../scripts/smoke.ts";
import { emptyUsage } from "../../../src/kernel/index.ts";
import { costOf, modelInfo } from "../../../src/llm/catalog.ts";
import { DEFAULT_TIER_MODELS, TIERS } from "../../../src/llm/resolve.ts";
import { runAgent, withFakeServerAndSandbox } from "../../cli/run-agent.ts";
import type { FakeTurn } from "../../support/fake-llm-server.ts";

const fx = withFakeServerAndSandbox();
const SMOKE = [process.execPath, resolve(import.meta.dir, "../../../scripts/smoke.ts")];

beforeEach(() => {
  expect(fx.server.pending()).toBe(0);
});

/** The fake turns of one tier: the plain answer, then the tool call and the answer of the loop. */
function tierTurns(): FakeTurn[] {
  return [
    { text: "pong" },
    { toolCalls: [{ name: "read_file", args: { path: "smoke.txt" } }] },
    { text: SMOKE_WORD },
  ];
}

function anthropicEnv(): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-smoke-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });
}

describe("bun run smoke", () => {
  test("with no key it says so and exits 0", async () => {
    const result = await runAgent([], { env: fx.sandbox.env(), bin: SMOKE });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("smoke: no provider key is set");
  });

  test("each tier of a keyed provider: a plain answer and a two-turn tool loop, as a table", async () => {
    for (const _ of TIERS) fx.server.enqueue(...tierTurns());
    const before = fx.server.requests.length;
    const result = await runAgent([], { env: anthropicEnv(), bin: SMOKE });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^provider +tier +model +check +result +tokens +cost_usd$/);
    const fast = DEFAULT_TIER_MODELS.fast.anthropic[0] as string;
    const usage = { ...emptyUsage(), inputTokens: 10, outputTokens: 5 };
    const cost = costOf(usage, modelInfo(fast)).toFixed(6);
    expect(lines[1]).toMatch(new RegExp(`^anthropic +fast +${fast} +answer +ok +15 +${cost}$`));
    expect(lines[2]).toMatch(new RegExp(`^anthropic +fast +${fast} +tool loop +ok +30 +`));
    for (const tier of TIERS) {
      const model = DEFAULT_TIER_MODELS[tier].anthropic[0] as string;
      expect(lines.filter((l) => l.startsWith(`anthropic  ${tier} `) && l.includes(model))).toHaveLength(2);
    }
    expect(lines.at(-1)).toBe("smoke: all checks passed");
    // Only the tier's first model was asked, and the loop sent the file back.
    const requests = fx.server.requests.slice(before);
    expect(requests).toHaveLength(9);
    expect(JSON.stringify(requests[2]?.body)).toContain(SMOKE_WORD);
  });

  test("a failing check is an error row and exit 1", async () => {
    fx.server.enqueue(
      {
        status: 404,
        errorBody: { type: "error", error: { type: "not_found_error", message: "model: gone" } },
      },
      ...tierTurns().slice(1),
      ...tierTurns(),
      ...tierTurns(),
    );
    const result = await runAgent([], { env: anthropicEnv(), bin: SMOKE });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /anthropic +fast +\S+ +answer +error: .*404 this model cannot serve the request/,
    );
    expect(result.stdout).toContain("smoke: 1 check(s) failed");
  });
});
