/**
 * A run with telemetry off loads no OpenTelemetry module: `bin/agent.ts` runs under a preload that fails
 * any load of an @opentelemetry package (no-opentelemetry-preload.ts). On an OpenAI run nothing of
 * OpenTelemetry may load at all. On an Anthropic run @opentelemetry/api alone is let through: the Anthropic
 * SDK (@anthropic-ai/sdk 1.12, a dependency of its own) imports it in its client.ts, with or without our
 * telemetry. The same run with an endpoint set loads the SDK and so fails under the preload, which shows
 * the guard would catch a load.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeSandbox, type Sandbox } from "../../cli/run-agent.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { processOutput } from "../../support/process-output.ts";
import { GUARD_MESSAGE } from "./no-opentelemetry-preload.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const PRELOAD = join(import.meta.dir, "no-opentelemetry-preload.ts");

let server: FakeLlmServer;
let sandbox: Sandbox;
let workspace: string;

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeSandbox();
  workspace = join(sandbox.dir, "ws");
  mkdirSync(workspace);
});
afterEach(async () => {
  await server.close();
  sandbox.cleanup();
});

/** `agent run` and `agent helper` as bin/agent starts them, plus the preload. */
async function runGuarded(args: string[], extra: Record<string, string>) {
  const proc = Bun.spawn(
    [process.execPath, "--no-env-file", "--preload", PRELOAD, join(ROOT, "bin", "agent.ts"), ...args],
    {
      cwd: workspace,
      env: sandbox.env(extra),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  return processOutput(proc);
}

const anthropic = () => ({
  ANTHROPIC_API_KEY: "sk-ant-test-telemetry-0001",
  ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  NO_OTEL_EXCEPT: "api",
});

describe("telemetry off loads no OpenTelemetry module", () => {
  test("agent run on OpenAI: not one @opentelemetry module", async () => {
    server.enqueue({ protocol: "openai-responses", text: "done" });
    const run = await runGuarded(["run", "say done", "-o", "json"], {
      OPENAI_API_KEY: "sk-test-telemetry-000000001",
      OPENAI_BASE_URL: server.openaiBaseUrl,
    });
    expect(run.stderr).not.toContain(GUARD_MESSAGE);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "success", answer: "done" });
  });

  test("agent run and agent helper on Anthropic: nothing beyond the SDK's own @opentelemetry/api", async () => {
    server.enqueue({ text: "done" }, { text: "hi" });
    const run = await runGuarded(["run", "say done", "-o", "json"], anthropic());
    expect(run.stderr).not.toContain(GUARD_MESSAGE);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "success", answer: "done" });
    const helper = await runGuarded(["helper", "say hi"], anthropic());
    expect(helper.stderr).not.toContain(GUARD_MESSAGE);
    expect(helper.code).toBe(0);
    expect(helper.stdout).toContain("hi");
  });

  test("with an endpoint set the SDK is loaded, and the preload catches it", async () => {
    server.enqueue({ text: "done" });
    const run = await runGuarded(["run", "say done", "-o", "json"], {
      ...anthropic(),
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout + run.stderr).toContain(GUARD_MESSAGE);
  });
});
