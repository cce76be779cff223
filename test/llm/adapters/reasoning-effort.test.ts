/** Reasoning effort: the config key per tier, the spec field, resolution, and the per-model mapping. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatSpecError, parseSpecText } from "../../../src/agents/spec/spec-loader.ts";
import { AppError } from "../../../src/kernel/index.ts";
import { acceptedEffort, effectiveEffort } from "../../../src/llm/adapters/effort.ts";
import { resolveModel } from "../../../src/llm/resolve.ts";
import { loadConfig } from "../../../src/sdk/config/config.ts";

describe("per-model efforts (catalog efforts, src/llm/adapters/effort.ts)", () => {
  test("a model without `none` gets its floor, never `none`", () => {
    expect(acceptedEffort("gpt-6-astra", "none")).toBe("low");
    expect(acceptedEffort("gpt-6.1-sol", "minimal")).toBe("low");
    expect(acceptedEffort("gpt-6-luna", "none")).toBe("none");
  });
  test("accepted values pass; `minimal` (refused by GPT-6) moves up; a dated snapshot counts as its base", () => {
    expect(acceptedEffort("gpt-6-astra", "max")).toBe("max");
    expect(acceptedEffort("gpt-6-luna", "minimal")).toBe("low");
    expect(acceptedEffort("gpt-6-astra-2026-09-03", "none")).toBe("low");
  });
  test("unknown models get the requested value; the default applies when none is asked", () => {
    // gpt-5.5 is in the models.dev snapshot (efforts none..xhigh), so `minimal` moves up; an id outside
    // the catalog gets the user's value as given.
    expect(acceptedEffort("gpt-5.5", "minimal")).toBe("low");
    expect(acceptedEffort("gpt-9-nova", "minimal")).toBe("minimal");
    expect(effectiveEffort("gpt-6-luna")).toBe("medium");
    expect(effectiveEffort("some-model")).toBeUndefined();
  });
});

describe("config: reasoning_effort per tier", () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "agent-effort-"));
    mkdirSync(join(home, "agent"), { recursive: true });
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const load = (text: string) => {
    writeFileSync(join(home, "agent", "config.yaml"), text);
    return loadConfig({ XDG_CONFIG_HOME: home });
  };

  test("is read per tier and reaches the tier's refs, fallbacks included", async () => {
    const config = await load("reasoning_effort:\n  best: high\n  fast: none\n");
    expect(config.reasoningEffort).toEqual({ best: "high", fast: "none" });
    const env = { OPENAI_API_KEY: "sk-test-openai-key-0001" };
    const best = resolveModel("best", { env, config }).ref;
    expect(best.reasoningEffort).toBe("high");
    expect(best.fallbacks?.every((f) => f.reasoningEffort === "high")).toBe(true);
    expect(resolveModel("good", { env, config }).ref.reasoningEffort).toBeUndefined();
    expect(resolveModel("openai:gpt-6-astra", { env, config }).ref.reasoningEffort).toBeUndefined();
  });

  test("a bad value names file, line and field, and the allowed values", async () => {
    let error: unknown;
    try {
      await load("models:\n  fast: gpt-6-luna\nreasoning_effort:\n  best: turbo\n");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    const message = (error as AppError).message;
    expect(message).toContain("config.yaml line 4: reasoning_effort.best:");
    expect(message).toContain("none, minimal, low, medium, high, xhigh, max");
  });
});

describe("spec: reasoning_effort", () => {
  const spec = (extra: string) =>
    `name: thinker\ndescription: thinks\nsystem_prompt: think\nmodel: best\n${extra}capabilities: [read_file]\n`;
  test("is loaded", () => {
    expect(parseSpecText(spec("reasoning_effort: xhigh\n"), "/x/t.yaml").spec?.reasoning_effort).toBe(
      "xhigh",
    );
  });
  test("a bad value is an error with file, line and field", () => {
    const { errors, spec: loaded } = parseSpecText(spec("reasoning_effort: turbo\n"), "/x/t.yaml");
    expect(loaded).toBeUndefined();
    expect(errors[0]).toMatchObject({ file: "/x/t.yaml", line: 5, field: "reasoning_effort" });
    expect(formatSpecError(errors[0] as NonNullable<(typeof errors)[0]>)).toContain(
      "/x/t.yaml:5: reasoning_effort: expected one of none, minimal, low, medium, high, xhigh, max",
    );
  });
});
