import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { configFile, loadConfig } from "../../../src/sdk/config/config.ts";
import { userConfigHomePerTest } from "../../support/user-config.ts";

const user = userConfigHomePerTest("agent-config-");
const { write, failure } = user;

describe("loadConfig", () => {
  test("a missing file is an empty config", async () => {
    const config = await loadConfig(user.env);
    expect(config.file).toBeUndefined();
    expect(config.models).toEqual({});
    expect(config.providers).toEqual({});
    expect(config.rules).toEqual({ allow: [], ask: [], deny: [] });
    expect(configFile(user.env)).toBe(join(user.home, "agent", "config.yaml"));
  });

  test("a full config is normalized: lists, camelCase, defaults", async () => {
    const file = write(`# my config
models:
  fast: ollama:llama3.2
  best: [anthropic:claude-opus-5-5, openai:gpt-6-astra]
providers:
  ollama:
    kind: openai-compatible
    base_url: http://localhost:11434/v1
  vllm:
    kind: openai-compatible
    base_url: https://vllm.internal/v1
    api_key_env: VLLM_API_KEY
  deepseek:
    kind: openai-compatible
    base_url: https://api.deepseek.com/v1
    send_reasoning_content: true
rules:
  allow: ["exec:git status", "write_file:src/**"]
  deny: ["exec:rm *"]
defaults:
  agent: root
  on_ask: fail
  compact_threshold: 0.7
`);
    const config = await loadConfig(user.env);
    expect(config).toEqual({
      file,
      models: { fast: ["ollama:llama3.2"], best: ["anthropic:claude-opus-5-5", "openai:gpt-6-astra"] },
      providers: {
        ollama: { kind: "openai-compatible", baseUrl: "http://localhost:11434/v1" },
        vllm: { kind: "openai-compatible", baseUrl: "https://vllm.internal/v1", apiKeyEnv: "VLLM_API_KEY" },
        deepseek: {
          kind: "openai-compatible",
          baseUrl: "https://api.deepseek.com/v1",
          sendReasoningContent: true,
        },
      },
      rules: { allow: ["exec:git status", "write_file:src/**"], ask: [], deny: ["exec:rm *"] },
      mcpServers: {},
      trustedProjects: [],
      defaults: { agent: "root", onAsk: "fail", compactThreshold: 0.7 },
    });
  });

  test("an empty file is an empty config", async () => {
    write("# nothing yet\n");
    expect((await loadConfig(user.env)).models).toEqual({});
  });
});

describe("config errors name file, line, field and what was expected", () => {
  test("a wrong type deep inside", async () => {
    const error = await failure(`models:
  fast: claude-haiku-5-5
providers:
  ollama:
    kind: openai-compatible
    base_url: 42
`);
    expect(error.kind).toBe("config");
    expect(error.details).toMatchObject({ line: 6, field: "providers.ollama.base_url" });
    expect(error.message).toContain(`${join(user.home, "agent", "config.yaml")} line 6`);
    expect(error.message).toContain("providers.ollama.base_url");
    expect(error.message).toContain("expected base_url: an http(s) URL");
  });

  test("send_reasoning_content must be true or false", async () => {
    const error = await failure(`providers:
  deepseek:
    kind: openai-compatible
    base_url: https://api.deepseek.com/v1
    send_reasoning_content: "yes"
`);
    expect(error.details).toMatchObject({ line: 5, field: "providers.deepseek.send_reasoning_content" });
    expect(error.message).toContain("expected send_reasoning_content: true or false");
  });

  test("an unknown field (a typo) points at the key", async () => {
    const error = await failure(`models:
  good: claude-sonnet-5-5

  fsat: claude-haiku-5-5
`);
    expect(error.details).toMatchObject({ line: 4, field: "models.fsat" });
    expect(error.message).toContain("expected fast, good, best or refresh");
  });

  test("a missing required field points at its parent", async () => {
    const error = await failure(`providers:
  lmstudio:
    kind: openai-compatible
`);
    expect(error.details).toMatchObject({ line: 2, field: "providers.lmstudio.base_url" });
    expect(error.message).toContain("missing");
  });

  test("a bad enum value says what is allowed", async () => {
    const error = await failure(`defaults:
  agent: root
  on_ask: maybe
`);
    expect(error.details).toMatchObject({ line: 3, field: "defaults.on_ask" });
    expect(error.message).toContain("deny, fail or allow");
  });

  test("compact_threshold must be above 0 and at most 1", async () => {
    for (const value of ["0", "1.5", "high"]) {
      const error = await failure(`defaults:\n  compact_threshold: ${value}\n`);
      expect(error.details).toMatchObject({ line: 2, field: "defaults.compact_threshold" });
      expect(error.message).toContain("expected compact_threshold: a number above 0 and at most 1");
    }
  });

  test("a built-in provider name cannot be redeclared", async () => {
    const error = await failure(`providers:
  openai:
    kind: openai-compatible
    base_url: http://x/v1
`);
    expect(error.details).toMatchObject({ line: 2, field: "providers.openai" });
    expect(error.message).toContain("built in");
  });

  test("invalid YAML names the line", async () => {
    const error = await failure(`models:
  fast: [claude-haiku-5-5
rules: {}
`);
    expect(error.kind).toBe("config");
    expect(error.message).toContain("invalid YAML");
    expect(error.details.line).toBeGreaterThanOrEqual(2);
  });
});

describe("sandbox:", () => {
  test("mode, network and required are read as written", async () => {
    write("sandbox:\n  mode: read-only\n  network: true\n  required: true\n");
    expect((await loadConfig(user.env)).sandbox).toEqual({
      mode: "read-only",
      network: true,
      required: true,
    });
  });

  test("an unknown mode names file, line, field and the modes", async () => {
    const error = await failure("rules:\n  allow: []\nsandbox:\n  mode: sometimes\n");
    expect(error.kind).toBe("config");
    expect(error.details).toMatchObject({ line: 4, field: "sandbox.mode" });
    expect(error.message).toContain(`${join(user.home, "agent", "config.yaml")} line 4`);
    expect(error.message).toContain("expected mode: off, workspace-write, read-only");
  });

  test("network must be true or false; an unknown key lists the known ones", async () => {
    const network = await failure("sandbox:\n  network: yes please\n");
    expect(network.details).toMatchObject({ line: 2, field: "sandbox.network" });
    expect(network.message).toContain("expected network: true or false");
    const unknown = await failure("sandbox:\n  writable: [/srv]\n");
    expect(unknown.details).toMatchObject({ line: 2, field: "sandbox.writable" });
    expect(unknown.message).toContain("expected mode, network or required");
  });
});

describe("telemetry:", () => {
  test("endpoint, headers and include_content are read as written", async () => {
    write(
      "telemetry:\n  endpoint: http://localhost:4318\n  headers: {x-key: abc}\n  include_content: true\n",
    );
    expect((await loadConfig(user.env)).telemetry).toEqual({
      endpoint: "http://localhost:4318",
      headers: { "x-key": "abc" },
      includeContent: true,
    });
  });

  test("an endpoint that is not an http(s) URL names file, line and field; unknown keys list the known", async () => {
    const endpoint = await failure("telemetry:\n  endpoint: ftp://collector\n");
    expect(endpoint.details).toMatchObject({ line: 2, field: "telemetry.endpoint" });
    expect(endpoint.message).toContain("expected endpoint: an http(s) URL");
    const unknown = await failure("telemetry:\n  sample_rate: 0.5\n");
    expect(unknown.message).toContain("expected endpoint, headers or include_content");
  });
});
