/**
 * The gate of `agent helper --tools a,b`: the whitelist is the approval. Listed tools run, anything else
 * is refused to the model as an error result (decided_by `whitelist`). Two things a listing never
 * approves: a call a deny rule of the user's or the project's config refuses (a deny must be hard to
 * dodge), and a change to git metadata or the agent's own config (a sensitive target asks even under a
 * broad rule, and a helper has nobody to ask). Kept apart from the loop so a session (src/sdk/session.ts)
 * can use it without loading the loop.
 */
import type { DenialInfo } from "../kernel/index.ts";
import { deniedMessage, describeCall, evaluate, type Rule } from "../policy/index.ts";
import type { Verdict } from "../policy/types.ts";
import { isPrimitiveName } from "../tools/names.ts";
import type { ToolGate } from "./types.ts";

/** The edit primitives are one capability offered under the model family's name (apply_patch for GPT
 * models, edit_file for the others, src/tools/registry.ts), so listing either allows the one offered. */
const EDIT_TOOLS = ["edit_file", "apply_patch"];

/** Refuses a listed tool's call: the model reads why, and the run's denials list it. */
function refuse(
  call: Parameters<ToolGate["check"]>[0],
  verdict: Verdict,
  denial: DenialInfo,
): { allowed: false; verdict: Verdict; message: string; denial: DenialInfo } {
  return {
    allowed: false,
    verdict,
    message: deniedMessage(describeCall(call.tool, call.request), denial.reason, []),
    denial,
  };
}

/**
 * A gate that approves the whitelisted tools and refuses everything else; `rules` (the user's and the
 * project's) still refuse by their deny rules, and a sensitive target (.git, the agent's config) is
 * refused since nobody can be asked.
 */
export function whitelistGate(tools: readonly string[], rules: readonly Rule[] = []): ToolGate {
  const allowed = new Set(tools);
  if (tools.some((t) => EDIT_TOOLS.includes(t))) for (const t of EDIT_TOOLS) allowed.add(t);
  return {
    async check(call) {
      if (allowed.has(call.tool)) {
        const verdict = evaluate(call.request, [...rules]);
        if (verdict.effect === "deny") {
          const rule = verdict.rule?.text;
          const reason = `the policy denies it: ${verdict.reason}`;
          return refuse(call, verdict, {
            decidedBy: "rule",
            ...(rule ? { rule } : {}),
            reason,
            suggestedAllow: [],
          });
        }
        if (call.request.sensitive) {
          const reason =
            "it changes git metadata or the agent's config, which needs approval, and a helper run cannot ask";
          return refuse(
            call,
            { effect: "ask", reason },
            { decidedBy: "whitelist", reason, suggestedAllow: [] },
          );
        }
        return { allowed: true, verdict: { effect: "allow", reason: "helper --tools whitelist" } };
      }
      const { message, denial } = notListed(call.tool, tools);
      return { allowed: false, verdict: { effect: "deny", reason: denial.reason }, message, denial };
    },
    unavailable(tool) {
      // A primitive the list left out is refused on purpose (a denial); any other name is a stumble.
      if (!isPrimitiveName(tool) || allowed.has(tool)) return undefined;
      return notListed(tool, tools);
    },
  };
}

/** The refusal of a tool `--tools` did not list: the model reads it, the denials list it. */
function notListed(tool: string, tools: readonly string[]): { message: string; denial: DenialInfo } {
  const reason = `not in the helper's --tools list (add ${tool} to --tools to allow it)`;
  return {
    message: `DENIED: this action was not performed: ${tool} is not available in this helper run; available tools: ${tools.join(", ") || "(none)"}. Nothing was run. Answer without it, and say it was not allowed.`,
    denial: { decidedBy: "whitelist", reason, suggestedAllow: [] },
  };
}
