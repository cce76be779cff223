/** The fake LLM server's CLI mode, as other suites use it for end-to-end runs and the startup benchmark. */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createProviderStream } from "../../../src/llm/providers.ts";
import { collect, expectDone, makeRequest } from "../../llm/harness.ts";

const SERVER = path.resolve(import.meta.dir, "../../support/fake-llm-server.ts");
let child: ReturnType<typeof Bun.spawn> | undefined;
afterEach(() => {
  child?.kill();
  child = undefined;
});

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return text.trim();
}

test("--script serves the scripted turns and prints its URL", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fake-llm-"));
  const script = path.join(dir, "turns.json");
  writeFileSync(script, JSON.stringify([{ text: "from the script" }]));
  child = Bun.spawn([process.execPath, SERVER, "--script", script], { stdout: "pipe", stderr: "inherit" });
  const url = await firstLine(child.stdout as ReadableStream<Uint8Array>);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const stream = createProviderStream({ kind: "anthropic", name: "anthropic", apiKey: "k", baseUrl: url });
  const done = expectDone(
    await collect(stream(makeRequest("anthropic", "claude-haiku-4-5", [{ role: "user", content: "hi" }]))),
  );
  expect(done.message.parts).toEqual([{ type: "text", text: "from the script" }]);
});
