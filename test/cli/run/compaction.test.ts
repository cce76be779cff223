/**
 * Compaction through `agent run` in the test process (in-process.ts) against the fake Anthropic server (real SDK and adapter), the usage
 * of each reply as the wire reports it (`input_tokens` + `cache_read_input_tokens` + ...), the threshold
 * from config. A run that passes it is compacted once by a fast-tier request and goes on; the
 * transcript keeps everything and records the compaction.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  anthropicEnv,
  type E2eSandbox,
  freshServerAndSandbox,
  onlyTranscriptText,
  transcriptRecords,
  unansweredToolCalls,
} from "../../e2e/support.ts";
import type { FakeLlmServer, FakeRequest } from "../../support/fake-llm-server.ts";
import { runInSandbox } from "./in-process.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const systemOf = (request: FakeRequest | undefined): string =>
  ((request?.body as { system?: { text: string }[] } | undefined)?.system ?? []).map((b) => b.text).join("");

test("past defaults.compact_threshold (reported input incl. cache reads) the run compacts once, goes on and finishes", async () => {
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(join(sandbox.configDir, "agent", "config.yaml"), "defaults:\n  compact_threshold: 0.1\n");
  // Turns of about 3,000 characters each: the kept tail is chosen by size (a quarter of the threshold's
  // tokens, counted as the provider counts: here about 25 tokens for each the loop estimates).
  for (let n = 1; n <= 6; n++)
    writeFileSync(join(sandbox.workspace, `f${n}.txt`), `content ${n}\n${"pad ".repeat(750)}\n`);
  const read = (n: number, cacheRead = 0) => ({
    toolCalls: [{ name: "read_file", args: { path: `f${n}.txt` } }],
    usage: { input: 50, output: 10, cacheRead },
  });
  server.enqueue(
    read(1),
    read(2),
    read(3),
    read(4),
    read(5),
    // 150,050 of claude-haiku-5-5's 1M window: past 0.1, counted from the cache reads too.
    read(6, 150_000),
    {
      text: "## Goal\nread six files\n## Decisions\nnone\n## Files touched\nf1-f6 read\n## Open threads\nnone",
    },
    { text: "All six read." },
  );
  const result = await runInSandbox(
    sandbox,
    ["run", "read the six files", "--agent", "command-runner", "--output", "stream-json"],
    anthropicEnv(sandbox, server),
  );
  expect(result.code).toBe(0);
  const requests = server.requests;
  expect(requests).toHaveLength(8);
  // The seventh request is the summariser's: the fast tier, its own prompt, the older turns as text.
  expect(requests[6]?.model).toBe("claude-haiku-5-5");
  expect(systemOf(requests[6])).toStartWith("You compact the earlier part of a conversation");
  const sent = JSON.stringify(requests[6]?.body);
  expect(sent).toContain("content 1");
  expect(sent).not.toContain("content 6");
  // The last request starts with the goal and the summary, then the kept turns.
  const last =
    (requests[7]?.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  expect(JSON.stringify(last[0])).toContain("Goal: read the six files");
  expect(JSON.stringify(last[0])).toContain("## Files touched");
  // stream-json and the transcript carry the compaction; the transcript keeps every message.
  expect(result.stdout).toContain('"type":"compaction"');
  const records = transcriptRecords(onlyTranscriptText(sandbox));
  const compaction = records.find((r) => r.kind === "compaction");
  // 25,000 provider tokens of tail at about 25 per estimated token: room for the last turn (2 messages).
  expect(compaction?.data).toMatchObject({ reason: "threshold", inputTokens: 150_050, kept: 2 });
  const messages = records.filter((r) => r.kind === "message" && r.depth === 0);
  expect(messages.filter((r) => (r.data.message as { role: string }).role === "tool")).toHaveLength(6);
  expect(unansweredToolCalls(records)).toEqual([]);
});
