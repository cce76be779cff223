import { evaluate } from "../../policy/evaluate.ts";
import { ruleApplies } from "../../policy/file-rules.ts";
import { patternMatches } from "../../policy/match.ts";
import { parseRule } from "../../policy/rules.ts";
import type { HookCall } from "./hook-types.ts";

/**
 * Whether a hook's `match` covers a call: exactly when, as a deny rule, it would refuse the call. So
 * `exec:rm *` sees `rm` wherever a deny rule would (`make && rm -rf x`, `/bin/rm`, `sudo rm`,
 * `bash -c 'rm …'`), and a guard hook cannot be dodged by chaining commands. A match may also name the
 * tool's own name (`verify`). A file rule's match covers every file-changing tool, as the rule would
 * (`edit_file:*.js` fires when a GPT model patches greet.js through apply_patch).
 */
export function hookMatches(match: string | undefined, call: HookCall): boolean {
  if (match === undefined || match === "*") return true;
  const rule = parseRule(match, "deny", "user");
  if (ruleApplies(rule.tool, call.policyName)) {
    const request = { tool: call.policyName, targets: call.targets, readOnly: false, sensitive: false };
    return evaluate(request, [rule]).effect === "deny";
  }
  if (rule.tool !== call.tool) return false;
  const pattern = rule.pattern;
  return pattern === undefined || call.targets.some((t) => patternMatches(rule.tool, pattern, t));
}
