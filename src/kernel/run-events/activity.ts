/**
 * What a run did, beside its answer: the tool calls with their outcome, the calls that were refused
 * (and who refused them), the turns, the stumbles, and whether old context was elided. Carried on
 * RunResult (`activity`) and reported in the machine-readable results (docs/ci-and-json.md "Machine-readable output").
 */

/**
 * Who refused a tool call:
 * - `rule`: a deny rule (`rule` names it);
 * - `on_ask`: `--on-ask deny` or `defaults.on_ask: deny` given explicitly;
 * - `default`: nobody could be asked (no terminal at all) and the default `--on-ask deny` applied;
 * - `no_terminal`: a person is at a terminal (stdin) but the run cannot prompt there (stdout is not one);
 * - `user`: the user answered no at the prompt;
 * - `whitelist`: `agent helper --tools` did not list the tool;
 * - `hook`: a `before_tool` hook exited 2 (its stderr is the reason).
 */
export type DenialSource = "rule" | "on_ask" | "default" | "no_terminal" | "user" | "whitelist" | "hook";

/** How the gate refused one call (what the loop reports beside the message the model reads). */
export interface DenialInfo {
  decidedBy: DenialSource;
  /** The deny rule that decided, for `rule`. */
  rule?: string;
  /** One line for people: why the call was refused. */
  reason: string;
  /** `--allow` rules that would have let the call through; empty when no allow rule can (deny rule, redirection, sensitive path). */
  suggestedAllow: string[];
}

/** One refused call, as the result lists it. */
export interface Denial extends DenialInfo {
  /** Agent id (`root/code-editor#1`) and spec name of the caller. */
  agent: string;
  agentName: string;
  tool: string;
  /** The call's main argument (command, path, URL), first line, shortened. */
  target: string;
}

/** How one tool call ended. */
export type ToolCallOutcome = "ok" | "error" | "denied" | "stumble" | "aborted";

/** One tool call, as the result lists it. */
export interface ToolCallRecord {
  agent: string;
  tool: string;
  target: string;
  outcome: ToolCallOutcome;
}

/** What a run (and its sub-agents) did. */
export interface RunActivity {
  /** Model turns taken by the agent and every sub-agent below it. */
  turns: number;
  /** Calls the model got wrong (unknown tool, arguments that do not fit the schema). */
  stumbles: number;
  toolCalls: ToolCallRecord[];
  denials: Denial[];
  /** True when old tool results were elided (or the history compacted) to fit the context window. */
  contextElided: boolean;
}

/** A run that did nothing yet. */
export function emptyActivity(): RunActivity {
  return { turns: 0, stumbles: 0, toolCalls: [], denials: [], contextElided: false };
}
