import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";
import { expectJsonShape, HELPER_RESULT_KEYS } from "../../../support/json-shape.ts";

const fx = withFakeServerAndSandbox();

const QUESTION = "What colour is the sky?";
const PIPED = "the sky is blue";

function anthropicEnv(): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-cli-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });
}

function noStackTrace(stderr: string): void {
  expect(stderr.split("\n").filter((line) => line.startsWith("    at "))).toEqual([]);
}

describe("agent helper against each provider", () => {
  const cases = [
    {
      provider: "anthropic",
      protocol: "anthropic",
      env: () => anthropicEnv(),
      model: /^claude-haiku/,
    },
    {
      provider: "openai",
      protocol: "openai-responses",
      env: () =>
        fx.sandbox.env({
          OPENAI_API_KEY: "sk-test-cli-0000000000001",
          OPENAI_BASE_URL: fx.server.openaiBaseUrl,
        }),
      model: /^gpt-6-luna$/,
    },
    {
      provider: "gemini",
      protocol: "gemini",
      env: () =>
        fx.sandbox.env({
          GEMINI_API_KEY: "gemini-test-cli-000001",
          GOOGLE_GEMINI_BASE_URL: fx.server.geminiBaseUrl,
        }),
      model: /^gemini-.*flash/,
    },
  ] as const;

  for (const c of cases) {
    test(`${c.provider}: piped stdin plus a question prints only the scripted answer`, async () => {
      fx.server.enqueue({ text: ["The sky ", "is blue."], protocol: c.protocol });
      const before = fx.server.requests.length;
      const result = await runAgent(["helper", "--tier", "fast", QUESTION], {
        env: c.env(),
        stdin: `${PIPED}\n`,
      });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("The sky is blue.\n");
      const requests = fx.server.requests.slice(before);
      expect(requests).toHaveLength(1);
      const [request] = requests;
      expect(request?.protocol).toBe(c.protocol);
      expect(request?.model).toMatch(c.model);
      const body = JSON.stringify(request?.body);
      expect(body).toContain(QUESTION);
      expect(body).toContain(PIPED);
      expect(body).toContain("<stdin>");
    });
  }
});

describe("agent helper output and errors", () => {
  for (const flag of [["--json"], ["-o", "json"], ["--output", "json"]]) {
    test(`${flag.join(" ")} prints the schema-2 result: snake_case, answer, model, provider, usage, rounded cost`, async () => {
      fx.server.enqueue({ text: "blue", usage: { input: 12, output: 3 } });
      const result = await runAgent(["helper", ...flag, QUESTION], { env: anthropicEnv() });
      expect(result.code).toBe(0);
      const output = JSON.parse(result.stdout);
      expect(Object.keys(output).sort()).toEqual(HELPER_RESULT_KEYS);
      expect(output).toMatchObject({
        type: "result",
        warnings: [],
        schema_version: 2,
        status: "success",
        finish_reason: "stop",
        exit_code: 0,
        answer: "blue",
        provider: "anthropic",
        usage: { input_tokens: 12, output_tokens: 3, total_tokens: 15 },
      });
      expect(output.model).toBe("claude-haiku-5-5");
      // (12 × $0.10 + 3 × $0.50) / 1M = $0.0000027, printed rounded to 6 decimals.
      expect(output.usage.cost_usd).toBe(0.000003);
      expectJsonShape(output);
      expect(result.stdout.trim().split("\n")).toHaveLength(1);
    });
  }

  test("stdin alone is the prompt", async () => {
    fx.server.enqueue({ text: "ok" });
    const before = fx.server.requests.length;
    const result = await runAgent(["helper"], { env: anthropicEnv(), stdin: "summarize this\n" });
    expect(result.code).toBe(0);
    expect(JSON.stringify(fx.server.requests[before]?.body)).toContain("summarize this");
  });

  test("--model and --system reach the request", async () => {
    fx.server.enqueue({ text: "ok" });
    const before = fx.server.requests.length;
    const result = await runAgent(
      ["helper", "--model", "anthropic:claude-opus-5-5", "--system", "Be terse.", "hi"],
      {
        env: anthropicEnv(),
      },
    );
    expect(result.code).toBe(0);
    const request = fx.server.requests[before];
    expect(request?.model).toBe("claude-opus-5-5");
    expect(JSON.stringify(request?.body)).toContain("Be terse.");
  });

  test("no key at all: exit 3, the first-run screen as agent run shows it, no stack trace", async () => {
    const result = await runAgent(["helper", QUESTION], { env: fx.sandbox.env() });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("\n")[0]).toBe("agent: no model provider is set up: no API key found");
    for (const name of [
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "GEMINI_API_KEY",
      "npm run demo",
      "agent models",
    ])
      expect(result.stderr).toContain(name);
    // The Ollama line names the command the user ran.
    expect(result.stderr).toContain('agent helper -m ollama:MODEL "your task"');
    noStackTrace(result.stderr);
  });

  test("401: one request, exit 4, the message names provider, model and status", async () => {
    fx.server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const before = fx.server.requests.length;
    const result = await runAgent(["helper", QUESTION], { env: anthropicEnv() });
    expect(result.code).toBe(4);
    expect(fx.server.requests.length - before).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("anthropic");
    expect(result.stderr).toMatch(/claude-haiku/);
    expect(result.stderr).toContain("401");
    noStackTrace(result.stderr);
  });

  test("usage errors exit 2: no prompt, unknown option, bad tier, unplaceable model", async () => {
    for (const args of [
      ["helper"],
      ["helper", "--bogus", "x"],
      ["helper", "--tier", "huge", "x"],
      ["helper", "--model", "mystery", "x"],
    ]) {
      const result = await runAgent(args, { env: anthropicEnv() });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stdout).toBe("");
      noStackTrace(result.stderr);
    }
  });

  test("a broken config exits 3 naming the file and line", async () => {
    const sb = makeSandbox();
    try {
      mkdirSync(join(sb.configDir, "agent"), { recursive: true });
      writeFileSync(join(sb.configDir, "agent", "config.yaml"), "models:\n  fast: 7\n");
      const result = await runAgent(["helper", "hi"], {
        env: sb.env({
          ANTHROPIC_API_KEY: "sk-ant-test-cli-000001",
          ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
        }),
      });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain("config.yaml line 2");
      expect(result.stderr).toContain("models.fast");
      noStackTrace(result.stderr);
    } finally {
      sb.cleanup();
    }
  });

  test("an openai-compatible server from config (Ollama-style) needs no key", async () => {
    const sb = makeSandbox();
    try {
      mkdirSync(join(sb.configDir, "agent"), { recursive: true });
      writeFileSync(
        join(sb.configDir, "agent", "config.yaml"),
        `providers:\n  ollama:\n    kind: openai-compatible\n    base_url: ${fx.server.openaiBaseUrl}\nmodels:\n  fast: ollama:llama3.2\n`,
      );
      fx.server.enqueue({ text: "local answer", protocol: "openai" });
      const before = fx.server.requests.length;
      const result = await runAgent(["helper", "hi"], { env: sb.env() });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("local answer\n");
      expect(fx.server.requests[before]?.model).toBe("llama3.2");
    } finally {
      sb.cleanup();
    }
  });

  test("--record then --replay with no key and no server", async () => {
    const cassette = join(fx.sandbox.dir, "helper.cassette.jsonl");
    fx.server.enqueue({ text: ["recorded ", "answer"] });
    const recorded = await runAgent(["helper", "--record", cassette, QUESTION], { env: anthropicEnv() });
    expect(recorded.code).toBe(0);
    expect(existsSync(cassette)).toBe(true);

    const before = fx.server.requests.length;
    const replayed = await runAgent(["helper", "--replay", cassette, QUESTION], { env: fx.sandbox.env() });
    expect(replayed.stderr).toBe("");
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe("recorded answer\n");
    expect(fx.server.requests.length).toBe(before);

    const json = await runAgent(["helper", "--json", "--replay", cassette, QUESTION], {
      env: fx.sandbox.env(),
    });
    expect(JSON.parse(json.stdout)).toMatchObject({ answer: "recorded answer", provider: "anthropic" });
  });
});

describe("agent helper never prints a secret", () => {
  test("a key value the model repeats is redacted on stdout, in text and --json", async () => {
    const key = "sk-ant-helper-secret-0123456789";
    const env = fx.sandbox.env({ ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl });
    fx.server.enqueue({ text: `your key is ${key}` }, { text: `your key is ${key}` });
    const text = await runAgent(["helper", "what is my key?"], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe("your key is [REDACTED]\n");
    const json = await runAgent(["helper", "--json", "what is my key?"], { env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).answer).toBe("your key is [REDACTED]");
    expect(`${text.stderr}${json.stdout}${json.stderr}`).not.toContain(key);
  });
});
