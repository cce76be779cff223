import type { AgentIdentity, DenialInfo } from "../kernel/index.ts";

/** The three outcomes of a policy check. */
export type Effect = "allow" | "ask" | "deny";

/** Where a rule came from. Project files may only add ask and deny rules. */
/** `skill`: an allow rule an activated skill's `allowed-tools` granted (src/agents/loop/skills/skill-activation.ts). */
export type RuleSource = "default" | "user" | "flag" | "project" | "session" | "skill";

/** `TOOL` or `TOOL:PATTERN`; PATTERN is a glob over the tool's main argument. */
export interface Rule {
  effect: Effect;
  tool: string;
  pattern?: string;
  source: RuleSource;
  /** The rule as written, e.g. `exec:npm test *`. */
  text: string;
}

/** One tool call as the policy sees it. */
export interface PolicyRequest {
  tool: string;
  /** Main arguments: the command for exec, workspace-relative paths, the URL for fetch. */
  targets: string[];
  /** The tool only reads. Reads of workspace paths are allowed by default; fetch, though read-only,
   * asks by default (its URL can carry data out). */
  readOnly: boolean;
  /** The user trusts this tool's claim to be read-only (an MCP server with `trust: true`): a read-only
   * call is then allowed by default. Without it only reads of workspace paths are. */
  trusted?: boolean;
  /** A read inside an activated skill's folder: allowed by default (deny and ask rules still apply), though
   * the path lies outside the workspace. */
  skillFolder?: boolean;
  /** Touches agent config or .git internals: never allowed without asking. */
  sensitive: boolean;
  /** Allowed when no rule matches: the tool holds no permission of its own (a sub-agent, whose every
   * call is gated in turn). Deny and ask rules naming it still apply. */
  allowByDefault?: boolean;
}

export interface Verdict {
  effect: Effect;
  /** The rule that decided; absent when a built-in default decided. */
  rule?: Rule;
  /** A short human-readable reason ("default: exec asks", "deny rule exec:rm *", "unparsable shell"). */
  reason: string;
}

/**
 * What the loop does with a call: run it, or tell the model `message` instead. `stop` is set when the
 * approver could not answer and the session must end (`--on-ask fail`, exit 6): a value, never a throw.
 * `cannotApply`: the policy would have asked, but the call's preview showed it cannot apply as it stands
 * (CallCannotApply); `message` is the tool's error, returned as the call's failure without a prompt.
 */
export type GateOutcome =
  | { allowed: true; verdict: Verdict }
  | { allowed: false; verdict: Verdict; message: string; denial: DenialInfo; stop?: true }
  | {
      allowed: false;
      verdict: Verdict;
      message: string;
      cannotApply: true;
      denial?: undefined;
      stop?: undefined;
    };

/** One tool call presented to the gate. */
export interface GateCheck {
  who: AgentIdentity;
  tool: string;
  args: Record<string, unknown>;
  request: PolicyRequest;
  /** Built only when the user is asked (a diff can be costly). */
  preview: () => Promise<string>;
}
