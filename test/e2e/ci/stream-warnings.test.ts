/**
 * Issue 20: warnings from the stream (here `model_retiring`, from the catalog's shutdown dates) reach
 * stderr as one line, and never stdout: `agent helper`'s single call, as bin/agent (the helper command has
 * no in-process entry yet); `agent run`: test/cli/ci/stream-warnings.test.ts.
 */
import { describe, expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const R = "openai-responses" as const;
// Shut down on 2026-10-23, replaced by gpt-5.6-sol (src/llm/catalog/overrides.ts, OpenAI deprecations page).
const SHUTDOWN = "gpt-4o-2024-05-13 was shut down on 2026-10-23; use gpt-5.6-sol instead";

const env = () =>
  sandbox.env({
    OPENAI_API_KEY: "sk-test-warnings-00000001",
    OPENAI_BASE_URL: server.openaiBaseUrl,
    // A model past its shutdown is refused (exit 3) unless the user lets it through; these runs
    // send it to see the warning it then carries (docs/models.md "Retirements").
    AGENT_ALLOW_RETIRED_MODELS: "1",
  });

const lines = (text: string, needle: string) => text.split("\n").filter((l) => l.includes(needle));

describe("stream warnings on stderr", () => {
  test("agent helper (single call) prints the shutdown line once", async () => {
    server.enqueue({ protocol: R, text: "hi" });
    const result = await runAgentIn(sandbox, ["helper", "-m", "openai:gpt-4o-2024-05-13", "say hi"], env());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("hi\n");
    expect(lines(result.stderr, SHUTDOWN)).toEqual([`agent: warning: ${SHUTDOWN}`]);
    expect(server.requests.at(-1)?.model).toBe("gpt-4o-2024-05-13");
  });
});
