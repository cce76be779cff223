/**
 * `--on-ask fail` (exit 6) from the user's side (issue 21, item 3): stdout holds exactly the answer, and
 * there is none, so text mode prints nothing (not the model's preamble) and the JSON modes give no answer
 * beside the error object (--output json: that object alone). How the error names the target and the rule
 * is the gate's (src/policy/gate.ts, pinned by its own tests). bin/agent without a TTY against the fake
 * server.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FakeTurn } from "../../support/fake-llm-server.ts";
import { freshServerAndSandbox, parseJsonLines } from "../support.ts";

const e2e = freshServerAndSandbox();

/** root says a preamble and delegates; the child says one and writes (which needs approval). */
function turns(): FakeTurn[] {
  return [
    {
      text: "Delegating the edit.",
      toolCalls: [{ name: "code-editor", args: { goal: "Create greet.js" } }],
    },
    {
      text: "Writing greet.js now.",
      toolCalls: [{ name: "write_file", args: { path: "greet.js", content: "console.log('hi')\n" } }],
    },
  ];
}

describe("--on-ask fail", () => {
  test("text mode: nothing on stdout (no preamble), exit 6, stderr names the tool", async () => {
    e2e.server.enqueue(...turns());
    const result = await e2e.runAgent(["run", "Create greet.js", "--on-ask", "fail"]);
    expect(result.code).toBe(6);
    expect(result.stdout).toBe("");
    expect(existsSync(join(e2e.sandbox.workspace, "greet.js"))).toBe(false);
    expect(result.stderr).toContain("approval needed for write_file");
    // The preamble is progress on stderr, never the answer.
    expect(result.stderr).toContain("· root: Delegating the edit.");
  });

  for (const output of ["json", "stream-json"]) {
    test(`--output ${output}: stdout ends with the error object alone, no answer`, async () => {
      e2e.server.enqueue(...turns());
      const result = await e2e.runAgent(["run", "Create greet.js", "--on-ask", "fail", "--output", output]);
      expect(result.code).toBe(6);
      const records = parseJsonLines(result.stdout);
      const last = records.at(-1);
      expect(last).toMatchObject({
        type: "result",
        status: "error",
        finish_reason: "approval_needed",
        exit_code: 6,
      });
      expect(last?.answer ?? "").toBe("");
      const error = last?.error as { kind: string; message: string };
      expect(error.kind).toBe("approval");
      expect(error.message).toContain("approval needed for write_file");
      expect(result.stdout).not.toContain('"answer":"Delegating');
      if (output === "json") expect(records).toHaveLength(1);
    });
  }
});
