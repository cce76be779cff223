/**
 * The provider-streams conformance corpus (test/fixtures/conformance/provider-streams, recorded real streams):
 * each stream is served as-is in its protocol's SSE framing and our adapter's normalized result is
 * compared with its expected.json.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { assistantText, type ProviderKind } from "../../../src/kernel/conversation/messages.ts";
import type { StopReason } from "../../../src/kernel/conversation/stream.ts";
import { type FakeLlmServer, type FakeProtocol, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, streamFor, toolCalls } from "../harness.ts";

const CORPUS = path.resolve(import.meta.dir, "../../fixtures/conformance/provider-streams");
const FOLDERS: Record<string, ProviderKind & FakeProtocol> = {
  anthropic: "anthropic",
  "openai-chat": "openai",
  gemini: "gemini",
};

interface Expected {
  text: string;
  reasoning_present: boolean;
  tool_calls: { name: string; arguments: Record<string, unknown> }[];
  stop_reason: string | null;
  usage: { input_tokens: number; output_tokens: number };
}

interface Case {
  name: string;
  kind: ProviderKind;
  lines: string[];
  expected: Expected;
}

/** Step 1 of the corpus README: split on \n, drop blank lines, strip a leading `data: `. */
function readLines(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (line.startsWith("data: ") ? line.slice("data: ".length) : line));
}

function loadCases(): Case[] {
  const cases: Case[] = [];
  for (const [folder, kind] of Object.entries(FOLDERS)) {
    const dir = path.join(CORPUS, folder);
    for (const file of readdirSync(dir).sort()) {
      if (!file.endsWith(".chunks.txt")) continue;
      const name = file.slice(0, -".chunks.txt".length);
      const expected = JSON.parse(readFileSync(path.join(dir, `${name}.expected.json`), "utf8")) as Expected;
      cases.push({ name: `${folder}/${name}`, kind, lines: readLines(path.join(dir, file)), expected });
    }
  }
  return cases;
}

/**
 * Billed usage where it differs from the expected.json counts. The corpus README's `usage` is the raw
 * wire counts (`promptTokenCount`/`candidatesTokenCount`, `prompt_tokens`/`completion_tokens`); what the
 * provider bills, and our adapters report, differs where a stream has thoughts, cached tokens or a
 * tool-use prompt: Gemini bills `thoughtsTokenCount` as output and `toolUsePromptTokenCount` as input,
 * and `promptTokenCount` includes `cachedContentTokenCount` (ai.google.dev/gemini-api/docs/pricing,
 * .../api/generate-content#UsageMetadata); OpenAI's `prompt_tokens` includes `cached_tokens`; xAI's
 * `completion_tokens` leaves out its 227 reasoning tokens (total_tokens 560 = 307 + 26 + 227). Figures
 * from each stream's last usage object.
 */
const BILLED: Record<string, { input: number; output: number; cacheRead: number; reasoning: number }> = {
  "openai-chat/xai-tool-call": { input: 1, output: 253, cacheRead: 306, reasoning: 227 },
  "gemini/google-reasoning-gemini3": { input: 9, output: 23 + 302, cacheRead: 0, reasoning: 302 },
  "gemini/google-stream-no-args-tool-call": { input: 249, output: 58 + 183, cacheRead: 0, reasoning: 183 },
  "gemini/google-stream-tool-call-arguments": { input: 26, output: 23 + 132, cacheRead: 0, reasoning: 132 },
  "gemini/google-text": { input: 9, output: 23 + 185, cacheRead: 0, reasoning: 185 },
  "gemini/google-tool-call-gemini3": { input: 29, output: 15 + 804, cacheRead: 0, reasoning: 804 },
  "gemini/google-tool-call": { input: 29, output: 15 + 45, cacheRead: 0, reasoning: 45 },
  "gemini/google-usage-raw-live": { input: 12 - 4 + 65, output: 71 + 89, cacheRead: 4, reasoning: 89 },
  "gemini/issue-18073-empty-text-thought-signature": {
    input: 15,
    output: 1 + 52,
    cacheRead: 0,
    reasoning: 52,
  },
  "anthropic/anthropic-claude-sonnet-5-reasoning-summarized": {
    input: 47,
    output: 373,
    cacheRead: 0,
    reasoning: 62,
  },
  "openai-chat/azure-model-router.1": { input: 15, output: 78, cacheRead: 0, reasoning: 64 },
};

/** The normalized stop reason a raw one must correspond to. */
function expectedStop(raw: string | null, hasToolCalls: boolean): StopReason {
  if (raw === null) return hasToolCalls ? "tool_calls" : "none";
  if (raw === "tool_use" || raw === "tool_calls") return "tool_calls";
  if (raw === "refusal") return "refusal";
  if (raw === "end_turn" || raw === "stop") return "end";
  if (raw === "STOP") return hasToolCalls ? "tool_calls" : "end";
  throw new Error(`no mapping for stop reason ${raw}`);
}

const cases = loadCases();
let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

describe("provider-streams conformance corpus", () => {
  test("the corpus is present and complete (19 streams)", () => {
    expect(cases).toHaveLength(19);
  });

  test.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    server.enqueue({ rawEvents: c.lines, protocol: c.kind });
    const request = makeRequest(c.kind, "conformance-model", [{ role: "user", content: "hi" }]);
    const result = await collect(streamFor(server, c.kind)(request));
    const done = expectDone(result);
    const answer = assistantText(done.message);

    expect(answer).toBe(c.expected.text);
    expect(result.text).toBe(c.expected.text);
    const calls = toolCalls(done.message);
    expect(calls.map((call) => ({ name: call.name, arguments: call.arguments }))).toEqual(
      c.expected.tool_calls,
    );
    for (const call of calls) expect(call.parseError).toBeUndefined();
    expect(done.rawStopReason).toBe(c.expected.stop_reason);
    expect(done.stopReason).toBe(expectedStop(c.expected.stop_reason, c.expected.tool_calls.length > 0));
    const billed = BILLED[c.name] ?? {
      input: c.expected.usage.input_tokens,
      output: c.expected.usage.output_tokens,
      cacheRead: 0,
      reasoning: 0,
    };
    expect({
      input: done.usage.inputTokens,
      output: done.usage.outputTokens,
      cacheRead: done.usage.cacheReadTokens,
      reasoning: done.usage.reasoningTokens,
    }).toEqual(billed);

    const reasoning = done.message.parts.filter((p) => p.type === "reasoning");
    const reasoningText = reasoning.map((p) => (p.type === "reasoning" ? p.text : "")).join("");
    expect(reasoning.some((p) => p.type === "reasoning" && (p.text !== "" || p.redacted === true))).toBe(
      c.expected.reasoning_present,
    );
    if (reasoningText !== "") expect(answer).not.toContain(reasoningText.slice(0, 40));
    // A thought signature that came on a function-call part stays on that call, to be sent back.
    if (c.lines.some((line) => line.includes('"functionCall"') && line.includes('"thoughtSignature"'))) {
      expect(calls[0]?.signature).toBeString();
      expect(calls[0]?.signature?.length).toBeGreaterThan(10);
    }
  });
});
