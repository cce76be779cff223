/**
 * `agent run --plan` and a chat's `/plan` on a terminal (docs/plan-mode.md): the plan is put to the user in the approval prompt
 * (y carries it out, f edits it first with typed changes, n or Esc rejects it); once approved, the same
 * session runs again, under the normal rules and with the plan-mode conversation as its history, to carry
 * it out. As Claude Code's plan mode: the plan is approved before anything changes, then the session
 * executes it with normal permissions. The review is put through the session's approver, so a plan waiting
 * for the user notifies as any approval does (docs/notifications.md: the terminal and `on_notification`
 * hooks with `notification_type` `permission_prompt`).
 */
import {
  type Message,
  makeEvent,
  PLAN_REVIEW_TOOL,
  type Plan,
  planText,
  type RunResult,
} from "../../../kernel/index.ts";
import type { Session } from "../../../sdk/session.ts";
import { type RootTurn, runRootTurn, type SessionSetup } from "./session-setup.ts";

/** What the user chose for a plan: carry it out (with their edits), or leave everything as it is. */
type Review = { approved: true; edits?: string } | { approved: false };

/** Puts `plan` to the user through the session's approver (the terminal's approval prompt). */
async function reviewPlan(
  session: Session,
  plan: Plan,
  agentName: string,
  signal: AbortSignal,
): Promise<Review> {
  const decision = await session.ask(
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

/** A plan-mode turn's end: the plan run's result, or, once the user approved it, the run that carried it out. */
export interface PlanOutcome {
  result: RunResult;
  approved: boolean;
}

/**
 * Runs the plan-mode turn; when `review` (a person answers the session's approvals) and the user approves
 * the plan, runs the approved plan in the same session and returns that run's result. `messages`: the
 * root's messages so far (the plan run's included).
 */
export async function planThenExecute(
  setup: SessionSetup,
  turn: RootTurn,
  review: boolean,
  messages: () => Message[],
): Promise<PlanOutcome> {
  const planned = await runRootTurn(setup, { ...turn, plan: true });
  if (!review || planned.status !== "success" || !planned.plan || turn.signal.aborted)
    return { result: planned, approved: false };
  const answer = await reviewPlan(setup.session, planned.plan, setup.spec.name, turn.signal).catch(
    (): Review => ({ approved: false }),
  );
  if (!answer.approved) return { result: planned, approved: false };
  // The approval is a structured record in the transcript, beside the plan it approves.
  setup.session.emit(makeEvent(setup.who, "plan", { plan: planned.plan, approved: true }));
  const { plan: _plan, outputSchema: _schema, ...normal } = turn;
  const result = await runRootTurn(setup, {
    ...normal,
    goal: executeGoal(planned.plan, answer.edits),
    history: messages(),
    resumed: true,
  });
  return { result, approved: true };
}
