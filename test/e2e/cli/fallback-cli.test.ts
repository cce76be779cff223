/**
 * A model the provider cannot serve moves `agent helper` and `agent run` to the tier's next candidate
 * (another provider when its key is set); `--no-fallback` and `defaults.fallback: false` stop at the first
 * with exit 4.
 */
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, withFakeServerAndSandbox } from "../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

const RETIRED = {
  status: 404,
  errorBody: { type: "error", error: { type: "not_found_error", message: "model: claude-retired-1" } },
};

function writeConfig(extra = ""): void {
  const dir = join(fx.sandbox.configDir, "agent");
  mkdirSync(dir, { recursive: true });
  const list = "[anthropic:claude-retired-1, gemini:gemini-3.8-flash]";
  writeFileSync(
    join(dir, "config.yaml"),
    `models:\n  fast: ${list}\n  good: ${list}\n  best: ${list}\n${extra}`,
  );
}

function env(): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-fallback-0001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
    GEMINI_API_KEY: "gemini-test-fallback-0001",
    GOOGLE_GEMINI_BASE_URL: fx.server.geminiBaseUrl,
  });
}

beforeEach(() => {
  expect(fx.server.pending()).toBe(0);
  writeConfig();
});

describe("fallback when a model cannot serve the request", () => {
  test("helper: a retired Anthropic model falls back to Gemini before any output", async () => {
    fx.server.enqueue(RETIRED, { text: "blue", protocol: "gemini" });
    const result = await runAgent(["helper", "--json", "What colour is the sky?"], { env: env() });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ answer: "blue", provider: "gemini" });
    expect(result.stderr).toContain(
      "anthropic:claude-retired-1 model_unsupported (anthropic claude-retired-1: 404 this model cannot serve the request",
    );
    expect(result.stderr).toContain("falling back to gemini:gemini-3.8-flash");
  });

  test("helper --no-fallback stops at the first candidate with exit 4", async () => {
    fx.server.enqueue(RETIRED);
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", "--no-fallback", "What colour is the sky?"], { env: env() });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("claude-retired-1");
    expect(result.stderr).toContain("this model cannot serve the request");
    expect(fx.server.requests.length - before).toBe(1);
  });

  test("config defaults.fallback: false stops at the first candidate with exit 4", async () => {
    writeConfig("defaults:\n  fallback: false\n");
    fx.server.enqueue(RETIRED);
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", "What colour is the sky?"], { env: env() });
    expect(result.code).toBe(4);
    expect(fx.server.requests.length - before).toBe(1);
  });

  test("helper --tools --no-fallback: a stalled run ends without escalating to the next tier", async () => {
    rmSync(join(fx.sandbox.configDir, "agent", "config.yaml"));
    const call = { toolCalls: [{ name: "read_file", args: { path: "a.txt" } }] };
    fx.server.enqueue(call, call, { text: "as far as I got" });
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", "--tools", "read_file", "--verbose", "--no-fallback", "q"], {
      env: fx.sandbox.env({
        ANTHROPIC_API_KEY: "sk-ant-test-fallback-0001",
        ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
      }),
      cwd: fx.sandbox.home,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("as far as I got\n");
    expect(result.stderr).not.toContain("↻ model");
    expect(fx.server.requests.length - before).toBe(3);
  });

  test("a defaults.fallback that is not a boolean is a config error (exit 3) naming the field", async () => {
    writeConfig("defaults:\n  fallback: sometimes\n");
    const result = await runAgent(["helper", "What colour is the sky?"], { env: env() });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("defaults.fallback: expected fallback: true or false");
  });

  test("run: the switch is a model_switch event naming why", async () => {
    fx.server.enqueue(RETIRED, { text: "done", protocol: "gemini" });
    const result = await runAgent(["run", "--output", "stream-json", "say done"], {
      env: env(),
      cwd: fx.sandbox.home,
    });
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const switched = lines.find((l) => l.type === "model_switch") as
      | { from: string; to: string; reason: string }
      | undefined;
    expect(switched?.from).toBe("anthropic:claude-retired-1");
    expect(switched?.to).toBe("gemini:gemini-3.8-flash");
    expect(switched?.reason).toStartWith("model_unsupported: ");
    expect(lines.at(-1)).toMatchObject({ type: "result", finish_reason: "stop", answer: "done" });
  });

  test("run: after a fallback the summary and the usage name the model that answered (issue 21, item 11)", async () => {
    fx.server.enqueue(RETIRED, { text: "done", protocol: "gemini" });
    const text = await runAgent(["run", "say done"], { env: env(), cwd: fx.sandbox.home });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe("done\n");
    const last = text.stderr.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toStartWith("■ success (stop) · gemini-3.8-flash · ");
    expect(last).not.toContain("claude-retired-1");

    fx.server.enqueue(RETIRED, { text: "done", protocol: "gemini" });
    const json = await runAgent(["run", "--output", "json", "say done"], {
      env: env(),
      cwd: fx.sandbox.home,
    });
    expect(json.code).toBe(0);
    const record = JSON.parse(json.stdout) as { usage: { agents: { agent: string; model: string }[] } };
    expect(record.usage.agents[0]).toMatchObject({ agent: "root", model: "gemini-3.8-flash" });
  });

  test("run --no-fallback ends with provider_error and exit 4", async () => {
    fx.server.enqueue(RETIRED);
    const before = fx.server.requests.length;
    const result = await runAgent(["run", "--no-fallback", "--output", "json", "say done"], {
      env: env(),
      cwd: fx.sandbox.home,
    });
    expect(result.code).toBe(4);
    expect(JSON.parse(result.stdout)).toMatchObject({ finish_reason: "provider_error", exit_code: 4 });
    expect(fx.server.requests.length - before).toBe(1);
  });
});
