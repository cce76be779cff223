import {
  type ApprovalDecision,
  ApprovalNeededError,
  type ApprovalRequest,
  type Approver,
} from "../kernel/index.ts";

/** What `--on-ask` says to do when a call needs approval and nobody can be asked. */
export type OnAsk = "deny" | "fail" | "allow";

/** An approver standing in for a flag; the gate reports its decisions with source "flag". */
export interface FlagApprover extends Approver {
  readonly source: "flag";
  readonly onAsk: OnAsk;
}

/**
 * The non-interactive approver behind `--on-ask`: deny refuses the call (the model sees a tool
 * error), fail throws ApprovalNeededError (the run ends with exit code 6), allow approves once.
 */
export function flagApprover(onAsk: OnAsk): FlagApprover {
  return {
    source: "flag",
    onAsk,
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
