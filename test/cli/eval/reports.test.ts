/**
 * The report outputs: JUnit XML that a real XML parser (fast-xml-parser) accepts whatever the model or
 * a check printed, shards that cover every task once, merge back in suite order, and compare.
 */
import { describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { progressLine } from "../../../src/cli/eval/eval-run.ts";
import { inShard, parseShard } from "../../../src/cli/eval/eval-shard.ts";
import { type EvalReport, type TaskReport, totalsOf } from "../../../src/cli/eval/report/eval-report.ts";
import { compareReports, comparisonText } from "../../../src/cli/eval/report/report-compare.ts";
import { reportJunit } from "../../../src/cli/eval/report/report-junit.ts";
import { mergeReports } from "../../../src/cli/eval/report/report-merge.ts";
import { reportTable } from "../../../src/cli/eval/report/report-table.ts";
import { CliExit } from "../../../src/cli/shared/command-module.ts";

function task(id: string, index: number, passed: boolean, extra: Partial<TaskReport> = {}): TaskReport {
  return {
    id,
    index,
    goal: `goal of ${id}`,
    passed,
    failures: passed ? [] : [`check \`make test\` exited 2`],
    status: "success",
    exit_code: 0,
    finish_reason: "stop",
    turns: 3,
    input_tokens: 100,
    output_tokens: 20,
    total_tokens: 120,
    cost_usd: 0.001,
    duration_ms: 1500,
    denials: 0,
    checks: [],
    answer: "done",
    ...extra,
  };
}

function report(tasks: TaskReport[], extra: Partial<EvalReport> = {}): EvalReport {
  return {
    type: "eval_report",
    schema_version: 1,
    suite: "suite.yaml",
    name: "suite",
    mode: "replay",
    started_at: "2026-11-26T10:00:00.000Z",
    duration_ms: 4000,
    tasks,
    totals: totalsOf(tasks),
    ...extra,
  };
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" });

describe("JUnit", () => {
  test("valid XML with a testcase per task and a failure for each failed one, hostile text escaped", () => {
    const hostile = "a <b> & \"c\" 'd' \u0000\u001b[31m\uFFFF ]]> end";
    const xml = reportJunit(
      report([
        task("ok", 0, true),
        task("bad<&>", 1, false, {
          failures: [hostile],
          checks: [
            { name: "t", passed: false, exit_code: 1, timed_out: false, duration_ms: 5, output: hostile },
          ],
        }),
      ]),
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = parser.parse(xml) as {
      testsuites: { testsuite: { tests: string; failures: string; testcase: Record<string, unknown>[] } };
    };
    const suite = parsed.testsuites.testsuite;
    expect(suite.tests).toBe("2");
    expect(suite.failures).toBe("1");
    expect(suite.testcase.map((c) => c.name)).toEqual(["ok", "bad<&>"]);
    expect(suite.testcase[0]?.failure).toBeUndefined();
    const failure = suite.testcase[1]?.failure as { message: string };
    expect(failure.message).toBe("a <b> & \"c\" 'd' [31m ]]> end");
  });
});

describe("shards", () => {
  test("i/n picks every task exactly once across the n shards", () => {
    const count = 4;
    const picked = Array.from({ length: 10 }, (_, position) =>
      [1, 2, 3, 4].filter((index) => inShard(position, { index, count })),
    );
    for (const shards of picked) expect(shards).toHaveLength(1);
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    for (const bad of ["0/2", "3/2", "1", "a/b", "1/0"]) expect(() => parseShard(bad)).toThrow(CliExit);
  });

  test("merge puts tasks back in suite order with summed totals, and refuses overlaps and other suites", () => {
    const a = report([task("t0", 0, true), task("t2", 2, false)], {
      shard: { index: 1, count: 2 },
      duration_ms: 900,
    });
    const b = report([task("t1", 1, true)], { shard: { index: 2, count: 2 }, duration_ms: 1200 });
    const merged = mergeReports([
      { file: "b.json", report: b },
      { file: "a.json", report: a },
    ]);
    expect(merged.tasks.map((t) => t.id)).toEqual(["t0", "t1", "t2"]);
    expect(merged.totals).toMatchObject({ tasks: 3, passed: 2, failed: 1, turns: 9, total_tokens: 360 });
    expect(merged.duration_ms).toBe(1200);
    expect(merged.shard).toBeUndefined();
    expect(() =>
      mergeReports([
        { file: "a.json", report: a },
        { file: "a2.json", report: a },
      ]),
    ).toThrow("task t0 is in both a.json and a2.json");
    expect(() =>
      mergeReports([
        { file: "a.json", report: a },
        { file: "x.json", report: report([], { suite: "x.yaml" }) },
      ]),
    ).toThrow("x.json is a report of suite x.yaml");
  });
});

describe("compare", () => {
  test("per task and in total: fixed, broken, added, removed and the deltas", () => {
    const old = report([task("a", 0, false), task("b", 1, true), task("gone", 2, true)]);
    const now = report([
      task("a", 0, true, { turns: 5, total_tokens: 200, cost_usd: 0.003 }),
      task("b", 1, false),
      task("new", 2, true),
    ]);
    const comparison = compareReports(old, now, "old.json");
    expect(comparison.tasks.map((t) => [t.id, t.change])).toEqual([
      ["a", "fixed"],
      ["b", "broken"],
      ["new", "added"],
      ["gone", "removed"],
    ]);
    expect(comparison.tasks[0]).toMatchObject({ turns: 2, total_tokens: 80, cost_usd: 0.002 });
    expect(comparison.totals).toMatchObject({ passed: { old: 2, new: 2 }, turns: 2, total_tokens: 80 });
    const text = comparisonText(comparison);
    expect(text).toContain("compared with old.json:");
    expect(text).toMatch(
      /a\s+FAIL -> pass\s+turns \+2\s+tokens \+80\s+cost \+0\.0020\s+time ±0\.0 s\s+\(fixed\)/,
    );
    expect(text).toMatch(/b\s+pass -> FAIL .*\(broken\)/);
    expect(text).toMatch(/gone\s+pass -> -\s+.*\(removed\)/);
  });
});

test("the table has a row per task, a total row and the failures below", () => {
  const text = reportTable(report([task("a", 0, true), task("b\u001b[2J", 1, false)]));
  const lines = text.trimEnd().split("\n");
  expect(lines[0]).toMatch(/^task\s+result\s+finish\s+turns\s+tokens\s+cost \$\s+time s\s+denials$/);
  expect(lines[1]).toMatch(/^a\s+pass\s+stop\s+3\s+120\s+0\.0010\s+1\.5\s+0$/);
  expect(lines[3]).toMatch(/^total\s+1\/2\s+6\s+240\s+0\.0020\s+3\.0\s+0$/);
  expect(text).not.toContain("\u001b");
  expect(lines.at(-1)).toBe("b: check `make test` exited 2");
});

test("a replayed task shows its recorded cost, marked rec, with a note; a spent cost stays unmarked", () => {
  const text = reportTable(
    report([
      task("replayed", 0, true, { cost_usd: 0, recorded_cost_usd: 0.0006 }),
      task("live", 1, true, { cost_usd: 0.001 }),
    ]),
  );
  const lines = text.trimEnd().split("\n");
  expect(lines[1]).toMatch(/^replayed\s+pass\s+stop\s+3\s+120\s+0\.0006 rec\s+1\.5\s+0$/);
  expect(lines[2]).toMatch(/^live\s+pass\s+stop\s+3\s+120\s+0\.0010\s+1\.5\s+0$/);
  expect(lines[3]).toMatch(/^total\s+2\/2\s+6\s+240\s+0\.0010\s+3\.0\s+0$/);
  expect(lines.at(-1)).toBe(
    "rec: what the recorded run cost; replaying it spent nothing (recorded_cost_usd)",
  );
  const allReplayed = reportTable(report([task("r", 0, true, { cost_usd: 0, recorded_cost_usd: 0.0006 })]));
  expect(allReplayed).toMatch(/\ntotal\s+1\/1\s+3\s+120\s+0\.0006 rec\s+1\.5\s+0\n/);
});

test("the progress line says 1 turn, 2 turns", () => {
  expect(progressLine(task("a", 0, true, { turns: 1 }))).toBe("✓ a (1 turn, 1.5 s)");
  expect(progressLine(task("b", 1, false, { turns: 2 }))).toBe(
    "✗ b (2 turns, 1.5 s): check `make test` exited 2",
  );
});
