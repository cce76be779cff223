/**
 * docs/github-action.md is the contract of the action's users: its inputs and outputs tables must list
 * exactly what action.yml declares, with the same defaults (a renamed or added input fails here until the
 * page says so).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readAction } from "../action/composite-runner.ts";

const ROOT = join(import.meta.dir, "..", "..");
const PAGE = readFileSync(join(ROOT, "docs", "github-action.md"), "utf8");
const action = readAction(join(ROOT, "action.yml"));

/** The rows of the first table after `heading`: first cell (backticks stripped) to the other cells. */
function tableAfter(heading: string): Map<string, string[]> {
  const lines = PAGE.split("\n");
  const start = lines.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const rows = new Map<string, string[]>();
  let i = lines.findIndex((line, n) => n > start && line.startsWith("|"));
  for (; i >= 0 && i < lines.length && (lines[i] ?? "").startsWith("|"); i++) {
    const cells = (lines[i] ?? "")
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
    const key = cells[0] ?? "";
    if (/^`[^`]+`$/.test(key)) rows.set(key.slice(1, -1), cells.slice(1));
  }
  return rows;
}

const unquote = (cell: string | undefined) => (cell ?? "").replace(/^`|`$/g, "");

describe("docs/github-action.md matches action.yml", () => {
  test("the inputs table lists every input once, with its default", () => {
    const rows = tableAfter("## Inputs");
    expect([...rows.keys()].sort()).toEqual(Object.keys(action.inputs).sort());
    for (const [name, spec] of Object.entries(action.inputs)) {
      expect({ name, default: unquote(rows.get(name)?.[0]) }).toEqual({ name, default: spec.default ?? "" });
    }
  });

  test("the outputs table lists every output once", () => {
    expect([...tableAfter("## Outputs").keys()].sort()).toEqual(Object.keys(action.outputs).sort());
  });
});
