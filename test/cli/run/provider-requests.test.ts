/**
 * Requests the real APIs accept, seen from the user's side: `agent run` in the test process against the fake
 * server, whose rules refuse what OpenAI, Ollama and Anthropic refuse, with their texts
 * (test/support/fake-rules-*.ts). Each test fails where the run sent what the API refuses.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonLines, writeProjectSpec } from "../../e2e/support.ts";
import type { FakeRequest } from "../../support/fake-llm-server.ts";
import { inProcessFixture } from "./in-process.ts";

const e2e = inProcessFixture();

const R = "openai-responses" as const;

function writeConfig(yaml: string): void {
  const dir = join(e2e.sandbox.configDir, "agent");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.yaml"), yaml);
}

function openaiEnv(): Record<string, string> {
  return e2e.sandbox.env({
    OPENAI_API_KEY: "sk-test-requests-0001",
    OPENAI_BASE_URL: e2e.server.openaiBaseUrl,
  });
}

/** The fake server itself as a local Ollama (config provider `ollama`). */
function ollamaConfig(model: string, effort: string): string {
  return [
    `models: { good: [ollama:${model}] }`,
    `reasoning_effort: { good: ${effort} }`,
    "providers:",
    "  ollama:",
    "    kind: openai-compatible",
    `    base_url: ${e2e.server.openaiBaseUrl}`,
    "",
  ].join("\n");
}

function body(request: FakeRequest | undefined): Record<string, unknown> {
  return (request?.body ?? {}) as Record<string, unknown>;
}

function jsonResult(stdout: string): Record<string, unknown> {
  const records = parseJsonLines(stdout);
  return records[records.length - 1] ?? {};
}

describe("prompt_cache_key", () => {
  test("a sub-agent with a long name gets a key of at most 64 characters, stable across its turns", async () => {
    const name = "a-sub-agent-whose-name-runs-to-fifty-three-characters";
    expect(name).toHaveLength(53);
    writeProjectSpec(
      e2e.sandbox,
      `${name}.yaml`,
      `name: ${name}\ndescription: Looks around\nmodel: good\ncapabilities: [glob]\nsystem_prompt: Look around.\n`,
    );
    e2e.server.enqueue(
      { protocol: R, toolCalls: [{ name, args: { goal: "look around" } }] },
      { protocol: R, toolCalls: [{ name: "glob", args: { pattern: "*" } }] },
      { protocol: R, text: "Nothing here." },
      { protocol: R, text: "Done." },
    );
    const result = await e2e.run(
      ["run", "Look around", "-m", "openai:gpt-6-luna", "--on-ask", "allow"],
      openaiEnv(),
    );
    expect(result.stderr).not.toContain("string_above_max_length");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done.\n");
    const keys = result.requests.map((r) => body(r).prompt_cache_key as string);
    expect(keys).toHaveLength(4);
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(64);
    // Root: requests 0 and 3; the sub-agent: 1 and 2, with a key of its own.
    expect(keys[3]).toBe(keys[0] as string);
    expect(keys[2]).toBe(keys[1] as string);
    expect(keys[1]).not.toBe(keys[0] as string);
    expect(keys[0]).toEndWith(":root");
  });
});

describe("reasoning efforts", () => {
  test("Ollama gets its own values: xhigh goes as high and the run is served", async () => {
    writeConfig(ollamaConfig("qwen3", "xhigh"));
    e2e.server.settings.ollama = { thinkingModels: ["qwen3"] };
    e2e.server.enqueue({ protocol: "openai", text: "Hi." });
    const result = await e2e.run(["run", "Say hi", "-m", "good"], e2e.sandbox.env());
    expect(result.stderr).not.toContain("invalid reasoning value");
    expect(result.code).toBe(0);
    expect(body(result.requests[0]).reasoning_effort).toBe("high");
  });

  test("Ollama: a model that cannot think is sent no effort after its refusal, with one warning", async () => {
    writeConfig(ollamaConfig("llama3.2", "low"));
    e2e.server.settings.ollama = { thinkingModels: [] };
    e2e.server.enqueue(
      { protocol: "openai", toolCalls: [{ name: "glob", args: { pattern: "*" } }] },
      { protocol: "openai", text: "Empty." },
    );
    const result = await e2e.run(["run", "Look", "-m", "good", "--output", "json"], e2e.sandbox.env());
    expect(result.code).toBe(0);
    const efforts = result.requests.map((r) => body(r).reasoning_effort);
    // The refused request, then both turns without the effort.
    expect(efforts).toEqual(["low", undefined, undefined]);
    const warnings = (jsonResult(result.stdout).warnings ?? []) as { code?: string; message: string }[];
    const dropped = warnings.filter((w) => w.code === "reasoning_effort_off");
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.message).toContain('"llama3.2" does not support thinking');
  });

  test("a model outside the catalog that refuses the configured effort: the error names reasoning_effort", async () => {
    writeConfig("models: { good: [openai:gpt-6.9-nova] }\nreasoning_effort: { good: minimal }\n");
    const result = await e2e.run(["run", "Say hi", "-m", "good"], openaiEnv());
    expect(result.code).toBe(4);
    expect(result.stderr).toContain("does not support 'minimal'");
    expect(result.stderr).toContain("`reasoning_effort` in config.yaml");
    expect((body(result.requests[0]).reasoning as { effort?: string }).effort).toBe("minimal");
  });

  test("gpt-6-sol keeps none", async () => {
    writeConfig("models: { good: [openai:gpt-6-sol] }\nreasoning_effort: { good: none }\n");
    e2e.server.enqueue({ protocol: R, text: "Hi." });
    const result = await e2e.run(["run", "Say hi", "-m", "good"], openaiEnv());
    expect(result.code).toBe(0);
    expect((body(result.requests[0]).reasoning as { effort?: string }).effort).toBe("none");
  });
});

describe("include and reasoning summaries", () => {
  test("gpt-4.1 gets neither encrypted reasoning nor a summary, and is served", async () => {
    e2e.server.enqueue({ protocol: R, text: "Hi." });
    const result = await e2e.run(["run", "Say hi", "-m", "openai:gpt-4.1"], openaiEnv());
    expect(result.stderr).not.toContain("Encrypted content");
    expect(result.code).toBe(0);
    const sent = body(result.requests[0]);
    expect(sent.include).toBeUndefined();
    expect(sent.reasoning).toBeUndefined();
  });

  test("gpt-5.5, outside our overrides, asks for summaries and encrypted reasoning", async () => {
    e2e.server.enqueue({ protocol: R, reasoning: ["Thinking it over."], text: "Hi." });
    const result = await e2e.run(["run", "Say hi", "-m", "openai:gpt-5.5"], openaiEnv());
    expect(result.code).toBe(0);
    const sent = body(result.requests[0]);
    expect(sent.include).toEqual(["reasoning.encrypted_content"]);
    expect((sent.reasoning as { summary?: string }).summary).toBe("auto");
  });

  test("an unverified organization: one retry without summaries, remembered, one warning on stderr and in warnings", async () => {
    e2e.server.settings.unverifiedOrganization = true;
    e2e.server.enqueue(
      { protocol: R, toolCalls: [{ name: "code-reader", args: { goal: "look around" } }] },
      { protocol: R, toolCalls: [{ name: "glob", args: { pattern: "*" } }] },
      { protocol: R, text: "Nothing here." },
      { protocol: R, text: "Done." },
    );
    const args = ["run", "Look around", "-m", "openai:gpt-6-luna", "--on-ask", "allow", "--output", "json"];
    const result = await e2e.run(args, openaiEnv());
    expect(result.code).toBe(0);
    // The first request is refused; every later one (the sub-agent's too) goes without summaries.
    const summaries = result.requests.map(
      (r) => (body(r).reasoning as { summary?: string } | undefined)?.summary,
    );
    expect(summaries).toEqual(["auto", undefined, undefined, undefined, undefined]);
    // No other candidate was tried: the model can serve the request.
    expect(new Set(result.requests.map((r) => r.model))).toEqual(new Set(["gpt-6-luna"]));
    const record = jsonResult(result.stdout);
    const warnings = (record.warnings ?? []) as { code?: string; message: string }[];
    const off = warnings.filter((w) => w.code === "reasoning_summaries_off");
    expect(off).toHaveLength(1);
    expect(off[0]?.message).toContain("Your organization must be verified");
    expect(result.stderr.split("\n").filter((l) => l.includes("reasoning summaries are off"))).toHaveLength(
      1,
    );
  });
});

describe("Claude Opus 4.6+ and Sonnet 4.6", () => {
  const cases: [string, string, string][] = [
    ["claude-opus-4-6", "high", "high"],
    ["claude-sonnet-4-6", "xhigh", "max"],
    ["claude-opus-4-7", "xhigh", "xhigh"],
    ["claude-opus-4-8", "minimal", "low"],
  ];
  test.each(cases)("%s asked for %s gets adaptive thinking at %s", async (model, asked, sent) => {
    writeConfig(`models: { good: [anthropic:${model}] }\nreasoning_effort: { good: ${asked} }\n`);
    e2e.server.enqueue({ protocol: "anthropic", text: "Hi." });
    const result = await e2e.runAgent(["run", "Say hi", "-m", "good"]);
    expect(result.code).toBe(0);
    const request = e2e.server.requests[e2e.server.requests.length - 1];
    expect(body(request).thinking).toEqual({ type: "adaptive", display: "summarized" });
    expect(body(request).output_config).toEqual({ effort: sent });
  });

  test("without an effort they run as before: no thinking", async () => {
    e2e.server.enqueue({ protocol: "anthropic", text: "Hi." });
    const result = await e2e.runAgent(["run", "Say hi", "-m", "anthropic:claude-opus-4-6"]);
    expect(result.code).toBe(0);
    const request = e2e.server.requests[e2e.server.requests.length - 1];
    expect(body(request).thinking).toBeUndefined();
    expect(body(request).output_config).toBeUndefined();
  });
});
