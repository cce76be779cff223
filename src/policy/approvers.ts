import {
  type ApprovalDecision,
  ApprovalNeededError,
  type ApprovalRequest,
  type Approver,
} from "../kernel/index.ts";

/** What `--on-ask` says to do when a call needs approval and nobody can be asked. */
export type OnAsk = "deny" | "fail" | "allow";

/**
 * Why nobody is asked: `on_ask` the user chose `--on-ask` (flag or config); `default` no terminal at all,
 * so the default applies; `no_terminal` a person is at the terminal (stdin) but the run cannot prompt
 * there (stdout is piped). Denials report it, so the reason never blames a flag the user never gave.
 */
export type FlagReason = "on_ask" | "default" | "no_terminal";

/** An approver standing in for a flag; the gate reports its decisions with source "flag". */
export interface FlagApprover extends Approver {
  readonly source: "flag";
  readonly onAsk: OnAsk;
  readonly why: FlagReason;
}

/**
 * Why a run without an interactive approver decides by flag: the user gave `--on-ask` (or config
 * `defaults.on_ask`), or stdin is a terminal while stdout is not (someone is there, but no prompt can be
 * shown), or there is no terminal at all.
 */
export function flagReason(input: {
  explicit: boolean;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
}): FlagReason {
  if (input.explicit) return "on_ask";
  return input.stdinIsTTY && !input.stdoutIsTTY ? "no_terminal" : "default";
}

/**
 * The non-interactive approver behind `--on-ask`: deny refuses the call (the model sees a tool
 * error), fail throws ApprovalNeededError (the run ends with exit code 6), allow approves once.
 */
export function flagApprover(onAsk: OnAsk, why: FlagReason = "on_ask"): FlagApprover {
  return {
    source: "flag",
    onAsk,
    why,
    async decide(request: ApprovalRequest): Promise<ApprovalDecision> {
      if (onAsk === "fail") throw new ApprovalNeededError(request);
      return onAsk === "allow" ? { kind: "once" } : { kind: "deny" };
    },
  };
}

/** Decides from a script: a list consumed in order, or a function of the request. */
export type ApprovalScript =
  | ApprovalDecision[]
  | ((request: ApprovalRequest, signal: AbortSignal) => ApprovalDecision | Promise<ApprovalDecision>);

/** An approver for tests that records every request it was shown. */
export interface ScriptedApprover extends Approver {
  readonly requests: ApprovalRequest[];
}

/** Builds a scripted approver; running out of listed decisions is an error naming the request. */
export function scriptedApprover(script: ApprovalScript): ScriptedApprover {
  const queue = Array.isArray(script) ? [...script] : undefined;
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    async decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
      requests.push(request);
      if (typeof script === "function") return script(request, signal);
      const next = queue?.shift();
      if (next === undefined) {
        throw new Error(
          `scripted approver has no decision left for ${request.tool} (${request.sessionRule})`,
        );
      }
      return next;
    },
  };
}
