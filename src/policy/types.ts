/** The three outcomes of a policy check. */
export type Effect = "allow" | "ask" | "deny";

/** Where a rule came from. Project files may only add ask and deny rules. */
export type RuleSource = "default" | "user" | "flag" | "project" | "session";

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
  /** Touches agent config or .git internals: never allowed without asking. */
  sensitive: boolean;
}

export interface Verdict {
  effect: Effect;
  /** The rule that decided; absent when a built-in default decided. */
  rule?: Rule;
  /** A short human-readable reason ("default: exec asks", "deny rule exec:rm *", "unparsable shell"). */
  reason: string;
}
