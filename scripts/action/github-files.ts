/**
 * The runner's file commands, as GitHub documents them
 * (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands): a step sets its
 * outputs by appending to the file `$GITHUB_OUTPUT` names, and adds Markdown to the job's summary by
 * appending to `$GITHUB_STEP_SUMMARY`. Values go in the multi-line form `{name}<<{delimiter}` / value /
 * `{delimiter}` ("Multiline strings"), whatever they hold, so an answer with newlines or a line like
 * `status=success` cannot end or forge an output. The delimiter is random per value and checked against
 * it, as @actions/core's `prepareKeyValueMessage` does (actions/toolkit packages/core/src/file-command.ts:
 * `ghadelimiter_${uuid}`, refusing a value that contains it); a hostile model cannot guess it.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";

/** One output as the runner reads it back: `name<<DELIMITER`, the value's lines, `DELIMITER`. */
export function outputEntry(name: string, value: string): string {
  let delimiter = `ghadelimiter_${randomUUID()}`;
  while (value.includes(delimiter) || name.includes(delimiter)) delimiter = `ghadelimiter_${randomUUID()}`;
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

/** Appends every output to the `$GITHUB_OUTPUT` file (nothing when the runner gave none). */
export function writeOutputs(file: string | undefined, outputs: Record<string, string>): void {
  if (!file) return;
  const text = Object.entries(outputs)
    .map(([name, value]) => outputEntry(name, value))
    .join("");
  appendFileSync(file, text, "utf8");
}

/** Appends Markdown to the `$GITHUB_STEP_SUMMARY` file (nothing when the runner gave none). */
export function appendSummary(file: string | undefined, markdown: string): void {
  if (!file) return;
  appendFileSync(file, markdown.endsWith("\n") ? markdown : `${markdown}\n`, "utf8");
}

/**
 * A workflow command's data escaped as @actions/core's `escapeData` does (`%` → `%25`, CR → `%0D`,
 * LF → `%0A`), so a message cannot end its own command line and start another.
 */
export function commandData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** `::error title=…::message`: an annotation on the run's page ("Setting an error message"). */
export function errorAnnotation(message: string): string {
  return `::error title=agent::${commandData(message)}\n`;
}

/** `::add-mask::value`: the runner replaces the value with `***` in the log ("Masking a value in a log"). */
export function maskCommand(value: string): string {
  return `::add-mask::${commandData(value)}\n`;
}
