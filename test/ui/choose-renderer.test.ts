/**
 * chooseRenderer builds each renderer on the given sinks. Which of them loads Ink is checked in a fresh
 * process: test/e2e/startup/choose-renderer-loads.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { chooseRenderer } from "../../src/ui/renderer.ts";
import { MemorySink } from "./fixtures.ts";

describe("chooseRenderer", () => {
  test("builds renderers writing to the given sinks; no approver outside Ink", async () => {
    const stdout = new MemorySink();
    const plain = await chooseRenderer({
      output: "text",
      stdinIsTTY: false,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      noColor: false,
      stdout,
      stderr: new MemorySink(),
    });
    expect(plain.kind).toBe("plain");
    expect(plain.approver).toBeUndefined();
  });
});
