import { describe, expect, test } from "bun:test";
import { helperRecord } from "../../src/cli/helper/helper-output.ts";
import { emptyUsage } from "../../src/kernel/conversation/usage.ts";
import { makeEvent } from "../../src/kernel/run-events/events.ts";
import { Redactor } from "../../src/kernel/text/redact.ts";
import { JsonRenderer, StreamJsonRenderer } from "../../src/ui/json-renderers.ts";
import { buildResultRecord } from "../../src/ui/result.ts";
import { MAX_RESULT_WARNINGS, WarningLog } from "../../src/ui/result-warnings.ts";
import { finishedRun, MemorySink, root } from "./fixtures.ts";

const child = { agent: "root/code-reader#1", name: "code-reader", parent: "root", depth: 1 };

describe("WarningLog", () => {
  test("keeps warning events in order as {agent, code, message}; other kinds are ignored", () => {
    const log = new WarningLog();
    log.onEvent(makeEvent(root, "warning", { message: "MCP server gone failed to start: x", code: "mcp" }));
    log.onEvent(makeEvent(root, "error", { message: "not a warning", kind: "internal" }));
    log.onEvent(makeEvent(child, "warning", { message: "no code here" }));
    log.add("root", "hooks", "by hand");
    expect(log.fields()).toEqual({
      warnings: [
        { agent: "root", code: "mcp", message: "MCP server gone failed to start: x" },
        { agent: "root/code-reader#1", code: "warning", message: "no code here" },
        { agent: "root", code: "hooks", message: "by hand" },
      ],
    });
  });

  test(`keeps the first ${MAX_RESULT_WARNINGS} and counts the rest in warnings_dropped`, () => {
    const log = new WarningLog();
    for (let i = 0; i < MAX_RESULT_WARNINGS + 7; i++) log.add("root", "stall", `w${i}`);
    const fields = log.fields();
    expect(fields.warnings).toHaveLength(MAX_RESULT_WARNINGS);
    expect(fields.warnings[0]?.message).toBe("w0");
    expect(fields.warnings.at(-1)?.message).toBe(`w${MAX_RESULT_WARNINGS - 1}`);
    expect(fields.warnings_dropped).toBe(7);
  });
});

describe("warnings in the result object", () => {
  test("a run without warnings has warnings: [] and no warnings_dropped", () => {
    const record = buildResultRecord(finishedRun({}));
    expect(record.warnings).toEqual([]);
    expect("warnings_dropped" in record).toBe(false);
  });

  test("json and stream-json results list the run's warnings, redacted and terminal-safe", async () => {
    const secret = "supersecretvalue123";
    const events = [
      makeEvent(root, "warning", { message: `MCP server s failed: token ${secret}\u001b[2J`, code: "mcp" }),
      makeEvent(child, "warning", { message: "compacted", code: "compaction" }),
    ];
    for (const Renderer of [JsonRenderer, StreamJsonRenderer]) {
      const stdout = new MemorySink();
      const renderer = new Renderer({ stdout, stderr: new MemorySink(), redactor: new Redactor([secret]) });
      for (const event of events) renderer.onEvent(event);
      await renderer.finish(finishedRun({}));
      expect(stdout.text).not.toContain(secret);
      expect(stdout.text).not.toContain("\u001b");
      const last = JSON.parse(stdout.lines.at(-1) ?? "{}") as { warnings: Record<string, string>[] };
      expect(last.warnings.map((w) => [w.agent, w.code])).toEqual([
        ["root", "mcp"],
        ["root/code-reader#1", "compaction"],
      ]);
      expect(last.warnings[0]?.message).toStartWith("MCP server s failed: token ");
      expect(last.warnings[0]?.message).toContain("[REDACTED");
    }
  });

  test("the helper's record carries the same fields ([] when none were recorded)", () => {
    const outcome = {
      status: "success" as const,
      finishReason: "stop" as const,
      answer: "ok",
      model: "m",
      provider: "p",
      usage: emptyUsage(),
      costUsd: 0,
    };
    expect(helperRecord(outcome, 0).warnings).toEqual([]);
    const log = new WarningLog();
    log.add("root", "model_retiring", "m retires soon");
    expect(helperRecord({ ...outcome, warnings: log.fields() }, 0).warnings).toEqual([
      { agent: "root", code: "model_retiring", message: "m retires soon" },
    ]);
  });
});
