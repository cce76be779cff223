/**
 * Issue 22, from the fault's side: colliding ids never share a transcript, a concurrent resume of one
 * session is refused while its owner lives and taken over when it died, and a replaced path redirects
 * nothing already open.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeEvent } from "../../src/kernel/run-events/events.ts";
import { Redactor } from "../../src/kernel/text/redact.ts";
import { openTranscript } from "../../src/session/transcript.ts";
import { thrownAppError } from "../support/thrown-app-error.ts";

const root = { agent: "root", name: "root", depth: 0 };
const redactor = new Redactor([]);
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-exclusive-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const note = (message: string) => makeEvent(root, "warning", { message, code: "note" });

/** A pid that is certainly not running: a child that has exited. */
function deadPid(): number {
  const child = Bun.spawnSync(["true"]);
  return child.pid;
}

describe("exclusive create", () => {
  test("a new session whose id collides with an existing transcript is refused, never shared", () => {
    const id = "20261126-120000-abcdef";
    const first = openTranscript({ dir, newId: id, redactor });
    first.append(note("first run"));
    // While the first run holds it, and after it ended: refused either way.
    expect(thrownAppError(() => openTranscript({ dir, newId: id, redactor })).kind).toBe("session");
    first.close();
    const error = thrownAppError(() => openTranscript({ dir, newId: id, redactor }));
    expect(error.kind).toBe("session");
    expect(error.message).toContain("already exists");
    expect(
      readFileSync(join(dir, `${id}.jsonl`), "utf8")
        .split("\n")
        .filter(Boolean),
    ).toHaveLength(1);
  });
});

describe("session lock", () => {
  test("a second open of a running session is refused, naming the owner's pid", () => {
    const t = openTranscript({ dir, redactor });
    const error = thrownAppError(() => openTranscript({ dir, sessionId: t.id, redactor }));
    expect(error.kind).toBe("session");
    expect(error.message).toContain(`is in use by process ${process.pid}`);
    t.close();
    // Once the owner closed it, resuming works and releases the lock again.
    const resumed = openTranscript({ dir, sessionId: t.id, redactor });
    resumed.append(note("resumed"));
    resumed.close();
    expect(existsSync(join(dir, `${t.id}.lock`))).toBe(false);
  });

  test("the lock of a process that died is stale and taken over", () => {
    const t = openTranscript({ dir, redactor });
    t.close();
    writeFileSync(join(dir, `${t.id}.lock`), `${deadPid()}\n`);
    const resumed = openTranscript({ dir, sessionId: t.id, redactor });
    expect(readFileSync(join(dir, `${t.id}.lock`), "utf8").trim()).toBe(String(process.pid));
    resumed.close();
  });
});

describe("one descriptor", () => {
  test("a transcript path replaced by a symlink mid-run: nothing is written through the link", () => {
    const victim = join(dir, "victim.txt");
    writeFileSync(victim, "untouched\n");
    const t = openTranscript({ dir, redactor });
    t.append(note("before"));
    unlinkSync(t.path);
    symlinkSync(victim, t.path);
    t.append(note("after the swap"));
    t.close();
    expect(readFileSync(victim, "utf8")).toBe("untouched\n");
  });

  test("resuming a transcript that is a symlink is refused", () => {
    const victim = join(dir, "victim.jsonl");
    writeFileSync(victim, "");
    const id = "20261126-120000-0000aa";
    symlinkSync(victim, join(dir, `${id}.jsonl`));
    const error = thrownAppError(() => openTranscript({ dir, sessionId: id, redactor }));
    expect(error.message).toContain("symbolic link");
    expect(readFileSync(victim, "utf8")).toBe("");
  });
});
