/**
 * The job summary of one action run, in GitHub-flavoured Markdown, built from the JSON result alone
 * (docs/ci-and-json.md "Machine-readable output"): status and finish reason, the answer, usage and cost
 * per agent, every denial with the `--allow` rule that would let it through, and the error of a failed
 * run. Everything the model or the repository could have written is escaped (markdown.ts).
 */
import { allowFlag } from "../../src/policy/shell-quote.ts";
import type { DenialRow, ResultRecord } from "../../src/ui/result.ts";
import { codeBlock, codeSpan, escapeText } from "./markdown.ts";

/** A result as read from `agent run -o json`: error results carry only some of the fields. */
export type ActionResult = Partial<ResultRecord> & { exit_code: number };

const usd = (value: number | undefined): string => (value ?? 0).toFixed(6);
const count = (value: number | undefined): string => String(value ?? 0);

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

function table(header: string[], rows: string[][]): string {
  return [row(header), row(header.map(() => "---")), ...rows.map(row)].join("\n");
}

function overview(result: ActionResult): string {
  const seconds = result.duration_ms === undefined ? "" : `${(result.duration_ms / 1000).toFixed(1)} s`;
  return table(
    ["status", "finish reason", "exit code", "turns", "tool calls", "duration", "cost (USD)"],
    [
      [
        escapeText(result.status ?? "error"),
        escapeText(result.finish_reason ?? ""),
        String(result.exit_code),
        count(result.turns),
        count(result.tool_calls?.length),
        seconds,
        usd(result.usage?.cost_usd),
      ],
    ],
  );
}

function usageTable(result: ActionResult): string | undefined {
  const usage = result.usage;
  if (!usage) return undefined;
  const rows = usage.agents.map((a) => [
    escapeText(a.agent),
    escapeText(a.model),
    count(a.input_tokens),
    count(a.output_tokens),
    count(a.cache_read_tokens),
    count(a.cache_write_tokens),
    usd(a.cost_usd),
  ]);
  rows.push([
    "total",
    "",
    count(usage.input_tokens),
    count(usage.output_tokens),
    count(usage.cache_read_tokens),
    count(usage.cache_write_tokens),
    usd(usage.cost_usd),
  ]);
  return table(["agent", "model", "input", "output", "cache read", "cache write", "cost (USD)"], rows);
}

/** One denial as a list item: what was refused, by whom, why, and the rule that would let it through. */
function denialItem(d: DenialRow): string {
  // `decided_by` is `rule` when a rule decided (then named), else e.g. `on_ask`, `default`, a hook.
  const decided =
    d.rule === undefined ? escapeText(d.decided_by) : `${escapeText(d.decided_by)} ${codeSpan(d.rule)}`;
  const allow =
    d.suggested_allow.length > 0
      ? `To allow it: ${d.suggested_allow.map((rule) => codeSpan(allowFlag(rule))).join(" ")}`
      : "No --allow rule lets it through.";
  return `- ${codeSpan(d.tool)} ${codeSpan(d.target)} (agent ${escapeText(d.agent)}), refused by ${decided}: ${escapeText(d.reason)}. ${allow}`;
}

/** The Markdown summary of a run. */
export function summaryMarkdown(result: ActionResult): string {
  const parts = [`### agent run: ${escapeText(result.status ?? "error")}`, overview(result)];
  if (result.error) {
    parts.push(`#### Error\n\n${codeSpan(result.error.kind)}: ${escapeText(result.error.message)}`);
  }
  if (result.answer) parts.push(`#### Answer\n\n${codeBlock(result.answer).trimEnd()}`);
  const usage = usageTable(result);
  if (usage) parts.push(`#### Usage per agent\n\n${usage}`);
  const denials = result.denials ?? [];
  if (denials.length > 0) {
    parts.push(`#### Denials (${denials.length})\n\n${denials.map(denialItem).join("\n")}`);
  }
  if (result.resume_command) parts.push(`Continue the session with ${codeSpan(result.resume_command)}.`);
  return `${parts.join("\n\n")}\n`;
}
