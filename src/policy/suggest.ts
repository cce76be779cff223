import { evaluate } from "./evaluate.ts";
import { ruleToolFor } from "./file-rules.ts";
import { literalPattern, normalizeTarget } from "./match.ts";
import { parseRule } from "./rules.ts";
import { splitShell } from "./shell-split.ts";
import { suggestRule } from "./suggest-command.ts";
import type { PolicyRequest, Rule } from "./types.ts";

/**
 * The `--allow` rules that would let a refused call through, written as a person would: for exec one
 * rule per simple command not allowed yet, the program and a glob where that says it (`exec:node greet.js *`,
 * `exec:git status *`, suggest-command.ts), else the exact command; for file tools the path (a patch's
 * under `edit_file`, the name every model's edits share, file-rules.ts). Checked against the policy
 * itself: when the call would still not be allowed with them (a deny rule, an output redirection, a
 * sensitive or outside path, unparsable shell), no allow rule can help and the list is empty. Print them
 * with shellWord (shell-quote.ts) so they paste as one shell word.
 */
export function suggestAllowRules(request: PolicyRequest, rules: readonly Rule[]): string[] {
  const options =
    request.tool === "exec" ? execCandidates(request, rules) : [fileOrOtherCandidates(request, rules)];
  for (const texts of options) {
    if (texts === undefined || texts.length === 0 || texts.some((t) => t.includes("\0"))) continue;
    let suggested: Rule[];
    try {
      suggested = texts.map((text) => parseRule(text, "allow", "flag"));
    } catch {
      continue;
    }
    if (evaluate(request, [...rules, ...suggested]).effect === "allow") return texts;
  }
  return [];
}

/** One exact rule per target the existing rules do not allow yet (a bare tool when it has none). */
function fileOrOtherCandidates(request: PolicyRequest, rules: readonly Rule[]): string[] {
  if (request.targets.length === 0) return [request.tool];
  const tool = ruleToolFor(request.tool);
  const needed = request.targets.filter(
    (target) => evaluate({ ...request, targets: [target] }, [...rules]).effect !== "allow",
  );
  const texts = needed.map((t) => `${tool}:${literalPattern(tool, normalizeTarget(request.tool, t))}`);
  return [...new Set(texts)];
}

/**
 * Two sets of rules for the simple commands not allowed yet, tried in order: the readable ones, then
 * the exact ones (a readable rule the policy would not honour, e.g. next to an ask rule, falls back).
 */
function execCandidates(request: PolicyRequest, rules: readonly Rule[]): string[][] {
  const readable: string[] = [];
  const exact: string[] = [];
  for (const command of request.targets) {
    const split = splitShell(command.trim());
    if (!split.ok) return [];
    split.texts.forEach((text, i) => {
      const single = { ...request, targets: [text] };
      if (evaluate(single, [...rules]).effect === "allow") return;
      exact.push(`exec:${literalPattern("exec", text)}`);
      readable.push(suggestRule(text, split.commands[i]!, rules) ?? `exec:${literalPattern("exec", text)}`);
    });
  }
  return [[...new Set(readable)], [...new Set(exact)]];
}
