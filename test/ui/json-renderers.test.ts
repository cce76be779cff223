import { describe, expect, test } from "bun:test";
import { makeEvent } from "../../src/kernel/run-events/events.ts";
import { Redactor } from "../../src/kernel/text/redact.ts";
import { flattenEvent, JsonRenderer, StreamJsonRenderer } from "../../src/ui/json-renderers.ts";
import { buildResultRecord } from "../../src/ui/result.ts";
import { expectJsonShape } from "../support/json-shape.ts";
import { finishedRun, MemorySink, report, root, sampleRun } from "./fixtures.ts";

function parse(lines: string[]): Record<string, unknown>[] {
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("stream-json renderer", () => {
  test("init line first, one line per event with agent/depth/parent, one result line last", async () => {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const renderer = new StreamJsonRenderer({ stdout, stderr });
    const events = sampleRun();
    for (const event of events) renderer.onEvent(event);
    await renderer.finish(finishedRun({ exitCode: 5, status: "limit", finishReason: "max_turns" }));

    const lines = parse(stdout.lines);
    expect(lines).toHaveLength(events.length + 1); // session_start becomes the init line
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init", schema_version: 2, session_id: "s-1" });
    expect(lines[0]).toMatchObject({ agent: "root", depth: 0, goal: "fix the bug", model: "m-1" });
    for (const line of lines) {
      expect(typeof line.type).toBe("string");
      if (line.type === "result") continue;
      expect(typeof line.agent).toBe("string");
      expect(typeof line.depth).toBe("number");
      if ((line.depth as number) > 0) expect(typeof line.parent).toBe("string");
      else expect(line.parent).toBeUndefined();
    }
    expect(lines.filter((l) => l.type === "result")).toHaveLength(1);
    const last = lines[lines.length - 1];
    expect(last).toMatchObject({
      type: "result",
      status: "limit",
      finish_reason: "max_turns",
      exit_code: 5,
      session_id: "s-1",
      answer: "Done: the fix.",
    });
    const deltas = lines.filter((l) => l.type === "text_delta");
    expect(deltas[0]).toMatchObject({ delta: "Let me delegate.", agent: "root" });
    const toolEnd = lines.find((l) => l.type === "tool_end" && l.id === "t1");
    expect(toolEnd).toMatchObject({
      agent: "root/code-editor#1/code-reader#1",
      parent: "root/code-editor#1",
      depth: 2,
      is_error: false,
      duration_ms: 5,
    });
    // Schema 2: snake_case keys in every line (the model's tool args excepted), costs rounded.
    expectJsonShape(lines);
    expect(last).toMatchObject({ schema_version: 2 });
    // stderr stays minimal: the denial and the warning, nothing else
    expect(stderr.lines).toHaveLength(2);
    expect(stderr.text).toContain("denied edit_file src/x.ts");
    expect(stderr.text).toContain("stalled once");
  });

  test("text deltas can be left out; secrets are redacted; a run without events still starts with init", async () => {
    const stdout = new MemorySink();
    const renderer = new StreamJsonRenderer({
      stdout,
      stderr: new MemorySink(),
      includeTextDeltas: false,
      redactor: new Redactor(["supersecretvalue123"]),
    });
    for (const event of sampleRun()) renderer.onEvent(event);
    await renderer.finish(finishedRun({ answer: "key supersecretvalue123" }));
    const lines = parse(stdout.lines);
    expect(lines.some((l) => l.type === "text_delta")).toBe(false);
    expect(stdout.text).not.toContain("supersecretvalue123");

    const empty = new MemorySink();
    const bare = new StreamJsonRenderer({ stdout: empty, stderr: new MemorySink() });
    await bare.finish(finishedRun({ sessionId: "s-9", exitCode: 3, status: "error", finishReason: "error" }));
    const bareLines = parse(empty.lines);
    expect(bareLines.map((l) => l.type)).toEqual(["system", "result"]);
    expect(bareLines[0]).toMatchObject({ schema_version: 2, session_id: "s-9" });
    expect(bareLines[1]).toMatchObject({ exit_code: 3 });
  });
});

describe("json renderer", () => {
  test("prints only the result object, the same one stream-json ends with", async () => {
    const stdout = new MemorySink();
    const renderer = new JsonRenderer({ stdout, stderr: new MemorySink() });
    const events = sampleRun();
    for (const event of events) renderer.onEvent(event);
    expect(stdout.text).toBe("");
    const run = finishedRun({ exitCode: 0 });
    await renderer.finish(run);
    expect(stdout.lines).toHaveLength(1);
    const result = JSON.parse(stdout.text) as Record<string, unknown>;
    const { duration_ms: _d, ...rest } = result;
    const warnings = [{ agent: "root/code-editor#1", code: "warning", message: "stalled once" }];
    expect(rest).toEqual({ ...buildResultRecord(run, { warnings: { warnings } }) });
  });
});

describe("buildResultRecord", () => {
  test("usage has totals (root subtree) and tokens and cost per agent", () => {
    const record = buildResultRecord(finishedRun(), { durationMs: 1234.4 });
    expect(record.usage.cost_usd).toBe(0.03);
    expect(record.usage.input_tokens).toBe(300);
    expect(record.usage.total_tokens).toBe(360);
    expect(record.usage.agents.map((a) => [a.agent, a.depth, a.cost_usd])).toEqual([
      ["root", 0, 0.01],
      ["root/code-editor#1", 1, 0.01],
      ["root/code-editor#1/code-reader#1", 2, 0.01],
    ]);
    expect(record.usage.agents[1]?.parent).toBe("root");
    expect(record.usage.agents[0]?.parent).toBeUndefined();
    expect(record.duration_ms).toBe(1234);
    const failed = buildResultRecord(
      finishedRun({ error: { kind: "auth", message: "bad key" }, exitCode: 4 }),
    );
    expect(failed.error).toEqual({ kind: "auth", message: "bad key" });
  });

  test("costs are rounded to 6 decimals (one shared rounding), whatever the float sum", () => {
    const run = finishedRun();
    const [root] = run.usage;
    if (!root) throw new Error("fixture without a root");
    root.costUsd = 0.000021200000000000004;
    root.subtree.costUsd = 0.1 + 0.2;
    const record = buildResultRecord(run);
    expect(record.usage.cost_usd).toBe(0.3);
    expect(record.usage.agents[0]?.cost_usd).toBe(0.000021);
    expect(JSON.stringify(record)).not.toContain("0.000021200000000000004");
  });
});

describe("costs in JSON", () => {
  test("are rounded to 6 decimals in the result and in stream-json session_end lines", async () => {
    const run = finishedRun({ usage: [report(root, 0.1 + 0.2, 0.000_012_345_67)] });
    const record = buildResultRecord(run);
    expect(record.usage.cost_usd).toBe(0.000012);
    expect(record.usage.agents[0]?.cost_usd).toBe(0.3);
    expect(record.usage.agents[0]?.subtree.cost_usd).toBe(0.000012);
    const line = flattenEvent(makeEvent(root, "session_end", { ...run, sessionId: "s-1" }));
    const [first] = line.usage as { cost_usd: number; subtree: { cost_usd: number } }[];
    expect([first?.cost_usd, first?.subtree.cost_usd]).toEqual([0.3, 0.000012]);
  });
});
