/**
 * `agent run --no-session-persistence` (what `npm run demo` uses): the run keeps no transcript, so it
 * writes nothing to the state folder and prints no `continue:` line (JSON: no `resume_command`) that
 * could not work, nor a session id that names nothing; it cannot continue a session either (-c, --resume: a usage error, exit 2).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { inProcessFixture } from "./in-process.ts";

const e2e = inProcessFixture();

describe("agent run --no-session-persistence", () => {
  test("no transcript, no continue: line, no session id; the answer as usual", async () => {
    e2e.server.enqueue({ text: "Hello." });
    const result = await e2e.runAgent(["run", "--no-session-persistence", "say hello"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hello.\n");
    expect(result.stderr).toContain("■ success (stop)");
    expect(result.stderr).not.toContain("continue:");
    expect(result.stderr).not.toContain("session ");
    const sessions = e2e.sandbox.sessionsDir;
    expect(existsSync(sessions) ? readdirSync(sessions) : []).toEqual([]);
  });

  test("JSON output has no resume_command", async () => {
    e2e.server.enqueue({ text: "Hello." });
    const result = await e2e.runAgent(["run", "--no-session-persistence", "-o", "json", "say hello"]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.answer).toBe("Hello.");
    expect(json.resume_command).toBeUndefined();
  });

  test("with -c it is a usage error (exit 2) before any request", async () => {
    const result = await e2e.runAgent(["run", "--no-session-persistence", "-c", "go on"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--no-session-persistence");
    expect(e2e.server.requests).toHaveLength(0);
  });
});
