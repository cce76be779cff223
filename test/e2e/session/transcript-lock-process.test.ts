/**
 * The session lock seen from another process (the in-process lock tests are in
 * test/session/transcript-exclusive.test.ts): while a second Bun process holds a session open, resuming it
 * here is refused, naming that process; once it closes, the session opens.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "../../../src/kernel/text/redact.ts";
import { openTranscript } from "../../../src/session/transcript.ts";
import { thrownAppError } from "../../support/thrown-app-error.ts";

const redactor = new Redactor([]);
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-exclusive-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("session lock", () => {
  test("a concurrent resume from another process is refused with a clear message", async () => {
    const t = openTranscript({ dir, redactor });
    t.close();
    const script = `
      import { openTranscript } from ${JSON.stringify(join(import.meta.dir, "../../../src/session/transcript.ts"))};
      import { Redactor } from ${JSON.stringify(join(import.meta.dir, "../../../src/kernel/text/redact.ts"))};
      const t = openTranscript({ dir: ${JSON.stringify(dir)}, sessionId: ${JSON.stringify(t.id)}, redactor: new Redactor([]) });
      console.log("locked");
      await new Promise((resolve) => process.stdin.once("data", resolve));
      t.close();
    `;
    const holder = Bun.spawn(["bun", "-e", script], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
    try {
      const reader = (holder.stdout as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toContain("locked");
      const error = thrownAppError(() => openTranscript({ dir, sessionId: t.id, redactor }));
      expect(error.message).toContain(`session ${t.id} is in use by process ${holder.pid}`);
      (holder.stdin as import("bun").FileSink).write("done\n");
      (holder.stdin as import("bun").FileSink).end();
      expect(await holder.exited).toBe(0);
    } finally {
      holder.kill();
    }
    openTranscript({ dir, sessionId: t.id, redactor }).close();
  });
});
