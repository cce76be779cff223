/**
 * Redaction never corrupts data: a model answer holding an `Authorization: Bearer ...` header next to
 * quotes and backslashes (the shapes that broke redaction done on serialized JSON text) still reaches the
 * user as valid output, with only the secret replaced, through `helper --json` and a `--record` cassette.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn, spawnAgent } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const BEARER = "tok_live_9f8e7d6c5b4a39281706";
const OPENAI_SHAPED = "sk-proj-abcdefghijklmnopqrstuvwx";
/** What a prompt-injected or merely helpful model might answer: a header, quotes, a Windows path. */
const HOSTILE_ANSWER =
  `Run: curl -H "Authorization: Bearer ${BEARER}" -H 'x-key: ${OPENAI_SHAPED}' ` +
  `"https://example.test/a\\"b" > C:\\temp\\out.json\nDone.`;

function expectRedacted(text: string): void {
  expect(text).not.toContain(BEARER);
  expect(text).not.toContain(OPENAI_SHAPED);
  expect(text).toContain("[REDACTED]");
  // Everything around the secrets survives byte for byte.
  expect(text).toContain(`"https://example.test/a\\"b" > C:\\temp\\out.json\nDone.`);
}

describe("redaction on values", () => {
  test("helper --json prints valid JSON with the secret redacted and exits 0", async () => {
    server.enqueue({ text: [HOSTILE_ANSWER.slice(0, 20), HOSTILE_ANSWER.slice(20)] });
    const result = await runAgentIn(
      sandbox,
      ["helper", "--json", "how do I call the API?"],
      anthropicEnv(sandbox, server),
    );
    expect(result.stderr).not.toContain("internal error");
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { answer: string };
    expectRedacted(output.answer);
  });

  test("a --record cassette of such an exchange is valid JSON lines without the secret, and replays", async () => {
    server.enqueue({ text: HOSTILE_ANSWER });
    const cassette = join(sandbox.dir, "hostile.cassette.jsonl");
    const recorded = await runAgentIn(
      sandbox,
      ["run", "how do I call the API?", "--record", cassette],
      anthropicEnv(sandbox, server),
    );
    expect(recorded.stderr).not.toContain("internal error");
    expect(recorded.code).toBe(0);
    expectRedacted(recorded.stdout);
    const text = readFileSync(cassette, "utf8");
    expect(text).not.toContain(BEARER);
    const lines = text.trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();

    const other = join(sandbox.dir, "other");
    mkdirSync(other);
    const replayed = await spawnAgent(["run", "how do I call the API?", "--replay", cassette], {
      env: sandbox.env(),
      cwd: other,
    }).done;
    expect(replayed.code).toBe(0);
    expectRedacted(replayed.stdout);
  });
});
