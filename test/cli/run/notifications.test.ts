/**
 * Notifications without a terminal (in the test process, the model scripted on the fake server): a run that
 * took `notifications.after_seconds` (0 here) ends with a `notification` event of type idle_prompt right
 * before session_end, and the on_notification hook gets Claude Code's payload; a prompt that `--on-ask`
 * answers waits for nobody, so it notifies nothing; stdout holds no OSC 9 or bell (no terminal).
 */
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inProcessFixture } from "./in-process.ts";

const fixture = inProcessFixture();
const TEST_TIMEOUT_MS = 60_000;

function configure(afterSeconds: number): string {
  const { sandbox } = fixture;
  const log = join(sandbox.dir, "notified.jsonl");
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(
    join(sandbox.configDir, "agent", "config.yaml"),
    [
      "hooks:",
      "  on_notification:",
      `    - command: ${JSON.stringify(`cat >> '${log}'`)}`,
      "notifications:",
      `  after_seconds: ${afterSeconds}`,
      "",
    ].join("\n"),
  );
  return log;
}

test(
  "a run past after_seconds ends with an idle_prompt notification and the hook's Notification payload",
  async () => {
    const log = configure(0);
    fixture.server.enqueue({ text: "All done." });
    const result = await fixture.run(["run", "--agent", "code-reader", "-o", "stream-json", "look around"]);
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const kinds = events.map((e) => e.kind ?? e.type);
    const at = kinds.indexOf("notification");
    expect(at).toBeGreaterThan(-1);
    expect(kinds[at + 1]).toBe("session_end");
    expect(events[at]).toMatchObject({ notification_type: "idle_prompt" });
    expect(events[at].message).toMatch(/^agent finished \(success\) after \d+ s$/);
    expect(result.stdout).not.toContain("\x1b]9;");
    expect(result.stdout).not.toContain("\x07");
    const payloads = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(payloads).toEqual([
      {
        session_id: expect.any(String),
        cwd: fixture.sandbox.workspace,
        hook_event_name: "Notification",
        message: events[at].message,
        notification_type: "idle_prompt",
      },
    ]);
  },
  TEST_TIMEOUT_MS,
);

test(
  "an approval --on-ask decides waits for nobody: no notification, no hook",
  async () => {
    const log = configure(3600);
    fixture.server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "x" } }] },
      { text: "Could not write." },
    );
    const result = await fixture.run(["run", "--agent", "code-editor", "-o", "stream-json", "write a"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"approval_request"');
    expect(result.stdout).not.toContain('"notification"');
    expect(() => readFileSync(log, "utf8")).toThrow();
  },
  TEST_TIMEOUT_MS,
);
