/**
 * The docs pages (docs/providers-and-models.md, docs/ci-and-json.md) are a contract users script against: its tables and lists must say what the code does.
 * Several people edit both in parallel, so these checks pin the parts that drifted most easily: the
 * tier table (src/llm/resolve.ts), the `finish_reason` list (src/kernel/run-events/events.ts) and the exit code
 * table (src/kernel/errors.ts, src/cli/shared/io/exit-code.ts, src/agents/loop/finish.ts), the keys of the
 * result object (src/ui/result.ts, src/ui/result-warnings.ts), and the stream-json event types
 * (src/kernel/run-events/event-kinds.ts).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { statusFor } from "../../src/agents/loop/finish.ts";
import { exitCodeFor } from "../../src/cli/shared/io/exit-code.ts";
import { ExitCode, FINISH_REASONS } from "../../src/kernel/index.ts";
import { EVENT_KINDS } from "../../src/kernel/run-events/event-kinds.ts";
import { DEFAULT_TIER_MODELS, TIERS } from "../../src/llm/resolve.ts";
import { buildResultRecord } from "../../src/ui/result.ts";
import { WarningLog } from "../../src/ui/result-warnings.ts";

const DOCS = ["docs/providers-and-models.md", "docs/ci-and-json.md"]
  .map((doc) => readFileSync(join(import.meta.dir, "..", "..", doc), "utf8"))
  .join("\n");

/** The text of a docs section, from its heading to the next heading of the same or a higher level. */
function section(heading: string): string {
  const lines = DOCS.split("\n");
  const start = lines.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const level = heading.indexOf(" ");
  const end = lines.findIndex((line, i) => {
    const hashes = /^(#+) /.exec(line)?.[1]?.length;
    return i > start && hashes !== undefined && hashes <= level;
  });
  return lines.slice(start, end === -1 ? undefined : end).join("\n");
}

const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? "");

/** `| key | cell | cell |` rows of a Markdown table, as [key, cells]. */
function tableRows(text: string): [string, string[]][] {
  return text
    .split("\n")
    .filter((line) => /^\| [^-|]/.test(line))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    )
    .map((cells): [string, string[]] => [cells[0] ?? "", cells.slice(1)]);
}

describe("the docs match the code", () => {
  test("the tier table lists each tier's default candidates per provider, in order", () => {
    const rows = new Map(tableRows(section("## Models and tiers")));
    for (const tier of TIERS) {
      const defaults = DEFAULT_TIER_MODELS[tier];
      expect(rows.get(tier)?.map((cell) => cell.split(", "))).toEqual([
        [...defaults.anthropic],
        [...defaults.openai],
        [...defaults.gemini],
      ]);
    }
  });

  test("the finish_reason list of the result is exactly the finish reasons a run can end with", () => {
    const output = section("### Machine-readable output");
    const list = /`finish_reason` \(([^)]*)\)/.exec(output)?.[1] ?? "";
    expect(backticked(list).sort()).toEqual([...FINISH_REASONS].sort());
  });

  test("the stream-json list of event lines names every event kind", () => {
    const output = section("### Machine-readable output");
    const start = output.indexOf("then one line per event");
    const end = output.indexOf("the last line is the only one");
    expect(start).toBeGreaterThanOrEqual(0);
    const named = new Set(backticked(output.slice(start, end)));
    expect(EVENT_KINDS.filter((kind) => !named.has(kind))).toEqual([]);
  });

  test("every key of the result object, and of a warning in it, is named in Machine-readable output", () => {
    const warnings = new WarningLog();
    for (let i = 0; i <= 50; i++) warnings.add("root", "mcp", "x");
    const record = buildResultRecord(
      {
        status: "success",
        finishReason: "stop",
        answer: "",
        usage: [],
        sessionId: "s",
        exitCode: 0,
        resumeCommand: "agent run --resume s",
        recordedCostUsd: 0,
        error: { kind: "internal", message: "x" },
        plan: { summary: "s", steps: [], files: [], commands: [] },
      },
      { durationMs: 1, warnings: warnings.fields() },
    );
    // Words inside backticks: `"type":"result"` names `type`, `[{agent, code, message}]` names `agent`.
    const named = new Set(backticked(section("### Machine-readable output")).flatMap((t) => t.split(/\W+/)));
    const keys = [...Object.keys(record), ...Object.keys(record.warnings[0] ?? {})];
    expect(keys.filter((key) => !named.has(key))).toEqual([]);
    expect(keys).toContain("warnings_dropped");
  });

  test("the exit code table has one row per exit code, and names every finish reason of codes 1 and 5", () => {
    const rows = tableRows(section("### Exit codes")).filter(([code]) => /^\d+$/.test(code));
    const table = new Map(rows.map(([code, cells]) => [Number(code), cells.join(" ")]));
    expect([...table.keys()].sort((a, b) => a - b)).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
    for (const reason of FINISH_REASONS) {
      const code = exitCodeFor({ status: statusFor(reason), finishReason: reason });
      if (code === ExitCode.failure || code === ExitCode.limit) {
        expect({ reason, row: backticked(table.get(code) ?? "").includes(reason) }).toEqual({
          reason,
          row: true,
        });
      }
    }
  });
});
