/**
 * Issue 20: warnings from the stream (here `model_retiring`, from the catalog's shutdown dates) reach
 * stderr as one line, and never stdout: `agent run`, in the test process (../run/in-process.ts); `agent
 * helper`'s single call: test/e2e/ci/stream-warnings.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { type E2eSandbox, freshServerAndSandbox } from "../../e2e/support.ts";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { runInSandbox } from "../run/in-process.ts";

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
  test("agent run prints the shutdown line on stderr", async () => {
    server.enqueue({ protocol: R, text: "Done." });
    const result = await runInSandbox(
      sandbox,
      ["run", "say done", "-m", "openai:gpt-4o-2024-05-13", "--on-ask", "deny"],
      env(),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done.\n");
    expect(lines(result.stderr, SHUTDOWN)).toHaveLength(1);
  });
});
