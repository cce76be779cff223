/**
 * The user's own files are named by the run's environment (HOME and the XDG variables, user-files.ts): in
 * a workspace at HOME, a write to a shell start-up file is sensitive, so it asks even where a rule allows
 * it, and without a terminal the ask is denied. `agent run` in the test process (in-process.ts), whose HOME is the sandbox's, not the
 * test process's.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { anthropicEnv, parseJsonLines } from "../../e2e/support.ts";
import { inProcessFixture, runInSandbox } from "./in-process.ts";

const fixture = inProcessFixture();

test("in a workspace at HOME, writing ~/.bashrc asks despite --allow (denied without a terminal); the file stays absent", async () => {
  const { server, sandbox } = fixture;
  server.enqueue(
    { toolCalls: [{ name: "write_file", args: { path: ".bashrc", content: "echo hi\n" } }] },
    { text: "done" },
  );
  const env = anthropicEnv(sandbox, server, { HOME: sandbox.workspace });
  const result = await runInSandbox(
    sandbox,
    ["run", "edit my shell", "--agent", "code-editor", "--allow", "write_file:.bashrc", "-o", "stream-json"],
    env,
  );
  expect(result.code).toBe(0);
  expect(existsSync(join(sandbox.workspace, ".bashrc"))).toBe(false);
  const lines = parseJsonLines(result.stdout);
  expect(lines.find((line) => line.type === "approval_request")).toMatchObject({
    request: {
      target: ".bashrc",
      reason: "sensitive target (agent config or .git): allow rule write_file:.bashrc",
    },
  });
  expect(lines.find((line) => line.type === "approval_decision")).toMatchObject({
    decision: { kind: "deny" },
  });
});
