/**
 * `agent run -o stream-json ... | head -1`: once the reader has gone, the next write fails with EPIPE
 * and the run stops quietly: no stack trace, exit 141, the transcript closed with the run's end, and
 * no further model request. The first model answer is held by the fake server until head has printed
 * its line (the event), so the run's later writes can only meet a closed pipe. text and json print
 * nothing on stdout until the end, so there the run does its work and only its final write meets the
 * closed pipe: it still exits 141 without a stack trace.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { AGENT_BIN, anthropicEnv, type E2eSandbox, makeE2eSandbox, onlyTranscriptText } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
});
afterEach(async () => {
  await server.close();
  sandbox.cleanup();
});

/** Reads a stream until its first newline. */
async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += new TextDecoder().decode(chunk.value);
  }
  reader.releaseLock();
  return text;
}

for (const output of ["stream-json", "json", "text"] as const) {
  const what =
    output === "stream-json" ? "no model request after the pipe closed" : "the finished run exits quietly";
  test(`-o ${output} | head -1: exit 141, no stack trace, ${what}`, async () => {
    writeFileSync(join(sandbox.workspace, "notes.txt"), "one\ntwo\n");
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The model's first answer calls a tool; without the abort a second request would follow.
    server.enqueue({
      holdUntil: held,
      text: "Reading.",
      toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }],
    });
    if (output !== "stream-json") server.enqueue({ text: "one, two" });
    const rcFile = join(sandbox.dir, "rc");
    // stream-json prints its init line before the first request; json and text print nothing until
    // the end, so head gets a marker line from the shell instead.
    const script =
      output === "stream-json"
        ? `"$AGENT" run -o stream-json "read notes.txt" | head -1; echo "\${PIPESTATUS[0]}" > "$RC"`
        : `{ echo marker; "$AGENT" run -o ${output} "read notes.txt"; } | head -1; echo "\${PIPESTATUS[0]}" > "$RC"`;
    const proc = Bun.spawn(["bash", "-c", script], {
      env: { ...anthropicEnv(sandbox, server), AGENT: AGENT_BIN, RC: rcFile },
      cwd: sandbox.workspace,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const first = await firstLine(proc.stdout as ReadableStream<Uint8Array>);
    // head has printed its one line (and exits with it): let the model answer now.
    release();
    const [stderr, code] = await Promise.all([
      new Response(proc.stderr as ReadableStream<Uint8Array>).text(),
      proc.exited,
    ]);
    expect(code).toBe(0);
    expect(readFileSync(rcFile, "utf8").trim()).toBe("141");
    if (output === "stream-json")
      expect(JSON.parse(first)).toMatchObject({ type: "system", schema_version: 2 });
    expect(stderr).not.toContain("EPIPE");
    expect(stderr.split("\n").filter((line) => /^\s+at /.test(line))).toEqual([]);
    // The transcript ends with the run's end: the run was aborted (or had finished), not killed.
    const records = onlyTranscriptText(sandbox).trim().split("\n");
    const last = JSON.parse(records.at(-1) ?? "{}") as { kind?: string; data?: { status?: string } };
    expect(last.kind).toBe("session_end");
    if (output === "stream-json") {
      // The run stops at its first failed write: before its first model request, or (when its next lines
      // still fit in the pipe before head exited) once that request's answer arrives. Never a second
      // request, which the answer's tool call would need.
      expect(server.requests.length).toBeLessThanOrEqual(1);
      expect(last.data?.status).toBe("interrupted");
    } else {
      expect(server.requests).toHaveLength(2);
      expect(last.data?.status).toBe("success");
    }
  });
}
