/**
 * Issue 17 item 4: warnings reach the JSON result, not only stderr. `agent helper` (which starts no MCP
 * server) as bin/agent against the fake LLM server: its command has no in-process entry yet. `agent run`'s
 * MCP warnings: test/cli/ci/result-warnings.test.ts.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

// Agent runs on a loaded machine take seconds; a bound for "it ended at all", never a timing assertion.
setDefaultTimeout(60_000);

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

interface ResultWarnings {
  warnings: { agent: string; code: string; message: string }[];
  warnings_dropped?: number;
}

// Shut down on 2026-10-23 (src/llm/catalog/overrides.ts): every request to it carries a model_retiring warning.
const RETIRED = "openai:gpt-4o-2024-05-13";
const SHUTDOWN = "gpt-4o-2024-05-13 was shut down on 2026-10-23; use gpt-5.6-sol instead";

describe("agent helper: warnings in the result (helper starts no MCP server)", () => {
  const env = () =>
    sandbox.env({
      OPENAI_API_KEY: "sk-test-warnings-00000001",
      OPENAI_BASE_URL: server.openaiBaseUrl,
      // A model past its shutdown is refused (exit 3) unless the user lets it through; these runs
      // send it to see the warning it then carries (docs/models.md "Retirements").
      AGENT_ALLOW_RETIRED_MODELS: "1",
    });

  test("single call: -o json lists the stream's warning; a clean call has warnings: []", async () => {
    server.enqueue({ protocol: "openai-responses", text: "hi" });
    const warned = await runAgentIn(sandbox, ["helper", "-m", RETIRED, "-o", "json", "say hi"], env());
    expect(warned.code).toBe(0);
    expect((JSON.parse(warned.stdout) as ResultWarnings).warnings).toEqual([
      { agent: "root", code: "model_retiring", message: SHUTDOWN },
    ]);

    server.enqueue({ text: "hi" });
    const clean = await runAgentIn(
      sandbox,
      ["helper", "-o", "json", "say hi"],
      anthropicEnv(sandbox, server),
    );
    expect(clean.code).toBe(0);
    expect((JSON.parse(clean.stdout) as ResultWarnings).warnings).toEqual([]);
  });

  test("with --tools (the loop): the loop's warning events reach the result", async () => {
    server.enqueue({ protocol: "openai-responses", text: "hi" });
    const result = await runAgentIn(
      sandbox,
      ["helper", "-m", RETIRED, "--tools", "read_file", "-o", "json", "say hi"],
      env(),
    );
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as ResultWarnings;
    expect(record.warnings).toEqual([{ agent: "root", code: "model_retiring", message: SHUTDOWN }]);
  });
});
