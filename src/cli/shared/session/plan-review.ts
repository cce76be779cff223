/**
 * `agent run --plan` and a chat's `/plan` on a terminal (docs/plan-mode.md): the plan is put to the user in the approval prompt
 * (y carries it out, f edits it first with typed changes, n or Esc rejects it); once approved, the same
 * session runs again, under the normal rules and with the plan-mode conversation as its history, to carry
 * it out. As Claude Code's plan mode: the plan is approved before anything changes, then the session
 * executes it with normal permissions.
 */
import {
  type Approver,
  type Message,
  makeEvent,
  PLAN_REVIEW_TOOL,
  type Plan,
  planText,
  type RunResult,
} from "../../../kernel/index.ts";
import { type RootTurn, runRootTurn, type SessionSetup } from "./session-setup.ts";

/** What the user chose for a plan: carry it out (with their edits), or leave everything as it is. */
type Review = { approved: true; edits?: string } | { approved: false };

/** Puts `plan` to the user through the terminal's approval prompt. */
async function reviewPlan(
  approver: Approver,
  plan: Plan,
  agentName: string,
  signal: AbortSignal,
): Promise<Review> {
  const decision = await approver.decide(
    {
      id: `plan-review-${Date.now()}`,
      agent: "root",
      agentName,
      tool: PLAN_REVIEW_TOOL,
      args: {},
      preview: planText(plan),
      sessionRule: "",
      what: "carry out this plan",
      reason: "plan mode: nothing has changed yet",
    },
    signal,
  );
  if (decision.kind === "once" || decision.kind === "session") return { approved: true };
  if (decision.kind === "deny_feedback" && decision.feedback !== "")
    return { approved: true, edits: decision.feedback };
  return { approved: false };
}

/** The goal of the run that carries out an approved plan. */
export function executeGoal(plan: Plan, edits?: string): string {
  const changes = edits ? `\n\nThe user changed the plan before approving it:\n${edits}` : "";
  return `The user approved your plan. Carry it out now.\n\n${planText(plan)}${changes}`;
}

/**
 * Runs the plan-mode turn; on a terminal whose user approves the plan, runs the approved plan in the same
 * session and returns that run's result. `messages`: the root's messages so far (the plan run's included).
 */
export async function planThenExecute(
  setup: SessionSetup,
  turn: RootTurn,
  approver: Approver | undefined,
  messages: () => Message[],
): Promise<RunResult> {
  const planned = await runRootTurn(setup, { ...turn, plan: true });
  if (!approver || planned.status !== "success" || !planned.plan || turn.signal.aborted) return planned;
  const review = await reviewPlan(approver, planned.plan, setup.spec.name, turn.signal).catch(
    (): Review => ({ approved: false }),
  );
  if (!review.approved) return planned;
  // The approval is a structured record in the transcript, beside the plan it approves.
  setup.session.emit(makeEvent(setup.who, "plan", { plan: planned.plan, approved: true }));
  const { plan: _plan, outputSchema: _schema, ...normal } = turn;
  return runRootTurn(setup, {
    ...normal,
    goal: executeGoal(planned.plan, review.edits),
    history: messages(),
    resumed: true,
  });
}
