/**
 * Issue 20: `prompt_cache_key` is one per session and agent (`<session id>:<agent path>`), so an agent's
 * turns, which share a growing prefix, reach the same OpenAI prompt cache, and a sub-agent uses its own.
 */
import { describe, expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServerAndSandbox, runAgentIn, sessionIds } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const R = "openai-responses" as const;
const keyOf = (body: unknown) => (body as { prompt_cache_key?: string } | null)?.prompt_cache_key;

describe("prompt_cache_key on Responses requests", () => {
  test("an agent's turns share one key; a sub-agent sends its own", async () => {
    server.enqueue(
      { protocol: R, toolCalls: [{ name: "code-reader", args: { goal: "look around" } }] },
      { protocol: R, toolCalls: [{ name: "glob", args: { pattern: "*" } }] },
      { protocol: R, text: "Nothing here." },
      { protocol: R, text: "Done." },
    );
    const first = server.requests.length;
    const env = sandbox.env({
      OPENAI_API_KEY: "sk-test-cache-key-00000001",
      OPENAI_BASE_URL: server.openaiBaseUrl,
    });
    const result = await runAgentIn(sandbox, ["run", "Look around", "-m", "good", "--on-ask", "allow"], env);
    expect(result.code).toBe(0);
    const keys = server.requests.slice(first).map((r) => keyOf(r.body));
    expect(keys).toHaveLength(4);
    const [session] = sessionIds(sandbox);
    expect(session).toBeDefined();
    // Requests 0 and 3 are the root's turns, 1 and 2 the child's.
    expect(keys[0]).toBe(`${session}:root`);
    expect(keys[3]).toBe(keys[0]);
    expect(keys[1]).toBe(`${session}:root/code-reader#1`);
    expect(keys[2]).toBe(keys[1]);
  });
});
