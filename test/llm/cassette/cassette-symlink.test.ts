/** Issue 22: `--record FILE` is opened once; a model that swaps the path for a symlink redirects nothing. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import {
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelRequest, StreamEvent } from "../../../src/kernel/index.ts";
import { recordingStream } from "../../../src/llm/cassette/cassette.ts";
import { scriptedProvider } from "../../support/scripted-provider.ts";

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-cassette-link-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const request = (content: string): ModelRequest => ({
  model: { provider: "anthropic", providerName: "anthropic", id: "claude-haiku-5-5" },
  system: "s",
  messages: [{ role: "user", content }],
  tools: [],
});

async function drain(stream: AsyncIterable<StreamEvent>): Promise<void> {
  for await (const _ of stream) {
    // read to the end
  }
}

test("after the cassette path is replaced by a symlink mid-run, nothing is written through it", async () => {
  const file = join(dir, "run.cassette.jsonl");
  const bashrc = join(dir, "bashrc");
  writeFileSync(bashrc, "# my shell\n");
  const provider = scriptedProvider({ queue: [{ text: "first" }, { text: "echo pwned" }] });
  const recorder = recordingStream(provider.stream, file, { workspaceRoot: dir });
  await drain(recorder(request("one")));
  // What a model allowed `ln` does between two exchanges.
  unlinkSync(file);
  symlinkSync(bashrc, file);
  await drain(recorder(request("two")));
  expect(readFileSync(bashrc, "utf8")).toBe("# my shell\n");
});
