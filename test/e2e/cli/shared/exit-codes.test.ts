/**
 * Every failure ends with a documented exit code and a specific message: an unexpected exception is
 * 70 (internal error, never 1, which means the agent failed), one line without a stack trace unless
 * AGENT_DEBUG is set; a state directory that cannot hold transcripts is 3 naming the path.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { handleError } from "../../../../src/cli/program.ts";
import { exitCodeFor } from "../../../../src/cli/shared/io/exit-code.ts";
import { ExitCode } from "../../../../src/kernel/index.ts";
import { type Harness, harness, spec } from "../../../agents/harness.ts";
import { makeSandbox, runAgent } from "../../../cli/run-agent.ts";
import { startFakeLlmServer } from "../../../support/fake-llm-server.ts";

function sink(): { text: string; write(text: string): void } {
  return {
    text: "",
    write(text: string) {
      this.text += text;
    },
  };
}

describe("internal errors", () => {
  test("an unexpected exception exits 70 with one line and no stack trace", () => {
    const err = sink();
    const code = handleError(
      new TypeError("cannot read properties of undefined\n  at nowhere"),
      {},
      { stderr: err },
    );
    expect(code).toBe(70);
    expect(ExitCode.internal).toBe(70);
    expect(err.text).toBe("agent: internal error: cannot read properties of undefined at nowhere\n");
  });

  test("AGENT_DEBUG=1 adds the stack trace", () => {
    const err = sink();
    expect(handleError(new Error("boom"), { AGENT_DEBUG: "1" }, { stderr: err })).toBe(70);
    expect(err.text.split("\n").length).toBeGreaterThan(2);
    expect(err.text).toContain("at ");
  });

  test("in JSON mode an internal error also prints the one error object on stdout", () => {
    const err = sink();
    const out = sink();
    expect(handleError(new Error("boom\nsecond line"), {}, { stderr: err, json: out })).toBe(70);
    expect(JSON.parse(out.text)).toEqual({
      type: "result",
      schema_version: 2,
      status: "error",
      error: { kind: "internal", message: "boom second line" },
      exit_code: 70,
    });
    expect(out.text.endsWith("}\n")).toBe(true);
  });

  let h: Harness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  test("an exception inside the loop ends the run with exit code 70, not 1", async () => {
    h = await harness({ specs: [spec("root", [])], script: { queue: [{ text: "never" }] } });
    const result = await h.run("hi", {
      emit: (event) => {
        if (event.kind === "plan_start") throw new Error("renderer bug");
      },
    });
    expect(result).toMatchObject({ status: "error", finishReason: "error", error: { kind: "internal" } });
    expect(exitCodeFor(result)).toBe(70);
  });

  test("a model that cannot be resolved mid-run is a configuration error (3)", () => {
    expect(exitCodeFor({ status: "error", finishReason: "error", error: { kind: "config" } })).toBe(3);
  });

  test("a state directory that cannot be written, met mid-run, is exit 3 (kind state), not 70", () => {
    expect(exitCodeFor({ status: "error", finishReason: "error", error: { kind: "state" } })).toBe(3);
  });
});

describe("state directory", () => {
  test("XDG_STATE_HOME that is not a directory: exit 3 naming the path, no model call", async () => {
    const server = await startFakeLlmServer();
    const sandbox = makeSandbox();
    try {
      const notDir = join(sandbox.dir, "state-file");
      writeFileSync(notDir, "not a directory\n");
      server.enqueue({ text: "never" });
      const result = await runAgent(["run", "hi"], {
        env: sandbox.env({
          ANTHROPIC_API_KEY: "sk-ant-test-state-0001",
          ANTHROPIC_BASE_URL: server.url,
          XDG_STATE_HOME: notDir,
        }),
        cwd: sandbox.home,
      });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(notDir);
      expect(result.stderr).toContain("XDG_STATE_HOME");
      expect(result.stderr).not.toContain("internal error");
      expect(server.requests).toHaveLength(0);
    } finally {
      server.clear();
      await server.close();
      sandbox.cleanup();
    }
  });
});
