import { evaluate } from "./evaluate.ts";
import { escapePattern, normalizeTarget } from "./match.ts";
import { parseRule } from "./rules.ts";
import { splitShell } from "./shell-split.ts";
import type { PolicyRequest, Rule } from "./types.ts";

/**
 * The `--allow` rules that would let a refused call through: one exact rule per target (per simple
 * command for exec, since an exec rule matches one simple command). Checked against the policy itself:
 * when the call would still not be allowed with them (a deny rule, an output redirection, a sensitive or
 * outside path, unparsable shell), no allow rule can help and the list is empty.
 */
export function suggestAllowRules(request: PolicyRequest, rules: readonly Rule[]): string[] {
  const texts = candidateTexts(request);
  if (texts.length === 0) return [];
  let suggested: Rule[];
  try {
    suggested = texts.map((text) => parseRule(text, "allow", "flag"));
  } catch {
    return [];
  }
  const verdict = evaluate(request, [...rules, ...suggested]);
  if (verdict.effect !== "allow") return [];
  // Only the rules that were needed: drop those the existing rules already cover.
  return suggested
    .filter((rule) => evaluate(singleTarget(request, rule), [...rules]).effect !== "allow")
    .map((rule) => rule.text);
}

function candidateTexts(request: PolicyRequest): string[] {
  if (request.targets.length === 0) return [request.tool];
  if (request.tool !== "exec") {
    return request.targets.map((t) => `${request.tool}:${escapePattern(normalizeTarget(request.tool, t))}`);
  }
  const out: string[] = [];
  for (const command of request.targets) {
    const split = splitShell(command.trim());
    if (!split.ok) return [];
    for (const text of split.texts) out.push(`exec:${escapePattern(text)}`);
  }
  return [...new Set(out)];
}

/** The request narrowed to what one suggested rule covers (its unescaped pattern as the target). */
function singleTarget(request: PolicyRequest, rule: Rule): PolicyRequest {
  const target = rule.pattern?.replace(/\\(.)/g, "$1");
  return { ...request, targets: target === undefined ? [] : [target] };
}
