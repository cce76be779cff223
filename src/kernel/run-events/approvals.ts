import type { ElicitationAnswer, ElicitationQuestion } from "./elicitation.ts";

/** A question the loop asks the user (or the flag/rule standing in for them). Matched by id. */
export interface ApprovalRequest {
  id: string;
  /** Agent id and spec name of the asker. */
  agent: string;
  agentName: string;
  tool: string;
  args: Record<string, unknown>;
  /** What the user should look at: a unified diff for write/edit/patch, the command for exec, the URL for fetch. */
  preview: string;
  /** The exact rule a "yes for this session" answer adds, e.g. `exec:git status`. */
  sessionRule: string;
  /** The rules a "yes for this session" answer adds, one per target (`sessionRule` joins them with ", "). */
  sessionRules?: string[];
  /** What is being decided, in words: `edit greet.js`, `run npm test`, `apply patch: update a.js, add b.js`. */
  what?: string;
  /** The call's targets on one line: the paths it changes (never a diff header), the command, the URL. */
  target?: string;
  /** Why it asks: the rule that decided, or the default. */
  reason: string;
}

export type ApprovalDecision =
  | { kind: "once" }
  | { kind: "session" }
  | { kind: "deny" }
  | { kind: "deny_feedback"; feedback: string };

/** How the loop asks. Implementations: interactive (Ink), flag-driven (--on-ask), scripted (tests). */
export interface Approver {
  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
  /**
   * Puts an MCP server's form to the user (the same channel as approvals: one question at a time);
   * rejects when `signal` aborts. Absent (flags, `-p`, no terminal): every form is declined at once.
   */
  elicit?(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer>;
}

/** Raised by the `--on-ask fail` approver: the run must end with exit code 6. */
export class ApprovalNeededError extends Error {
  constructor(readonly request: ApprovalRequest) {
    const target = request.target ?? request.preview.split("\n")[0] ?? "";
    super(`approval needed for ${request.tool} (${target}) and --on-ask is fail`);
    this.name = "ApprovalNeededError";
  }
}

/**
 * Thrown by a tool's preview when the call cannot apply as it stands (an edit whose old_string is not in
 * the file): the message is the tool's own error. Where the policy would ask, the gate returns it to the
 * model as the call's failure instead of prompting (policy/gate.ts); the call never runs.
 */
export class CallCannotApply extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CallCannotApply";
  }
}
