/**
 * The Ink app's state and its pure reducer. Fed by events (batched by the store) and by the approver;
 * testable without Ink. Finished items go to `history` (shown once through <Static>); the live part
 * (active agents, running tools, streaming text) stays bounded whatever the length of the run.
 */
import { emptyUsage } from "../../../kernel/conversation/usage.ts";
import { applyEvent, endTurn } from "./apply-event.ts";
import { flushGroups, pushItem, pushItems } from "./history-groups.ts";
import type { CostFn, UiAction, UiState } from "./state-types.ts";

export { STREAM_TAIL_CHARS } from "./apply-event.ts";
export type { ActiveAgent, CostFn, HistoryItem, RunningTool, UiAction, UiState } from "./state-types.ts";

export function initialState(): UiState {
  return {
    sessionId: "",
    goal: "",
    model: "",
    switches: {},
    startedAt: undefined,
    history: [],
    historyGeneration: 0,
    nextKey: 0,
    agents: [],
    usage: emptyUsage(),
    costUsd: 0,
    approvals: [],
    elicitations: [],
    questions: [],
    requests: {},
    calls: {},
    groups: {},
    seen: {},
    finished: undefined,
    lastRootText: "",
  };
}

/** Applies one action; returns a new state, never mutates `state`. */
export function reduce(state: UiState, action: UiAction, costOf?: CostFn): UiState {
  return reduceBatch(state, [action], { costOf });
}

/** Options for {@link reduceBatch}. */
export interface BatchOptions {
  costOf?: CostFn;
  /** The view has printed the current history: start a new generation holding only new items. */
  freshHistory?: boolean;
}

/** Applies a batch of actions with one copy of the state (the store's flush). Pure. */
export function reduceBatch(
  state: UiState,
  actions: readonly UiAction[],
  options: BatchOptions = {},
): UiState {
  const draft: UiState = {
    ...state,
    history: [...state.history],
    agents: state.agents.map((a) => ({ ...a, tools: [...a.tools] })),
    approvals: [...state.approvals],
    elicitations: [...state.elicitations],
    questions: [...state.questions],
    requests: { ...state.requests },
    calls: { ...state.calls },
    // Each group copied once per batch, so routing appends in place (not a copy per item).
    groups: Object.fromEntries(Object.entries(state.groups).map(([id, items]) => [id, [...items]])),
    seen: { ...state.seen },
    switches: { ...state.switches },
  };
  let fresh = options.freshHistory === true;
  for (const action of actions) {
    const before = draft.nextKey;
    apply(draft, action, options.costOf, fresh);
    if (fresh && draft.nextKey !== before) fresh = false;
  }
  return draft;
}

function apply(draft: UiState, action: UiAction, costOf: CostFn | undefined, fresh: boolean): void {
  switch (action.type) {
    case "approval_enqueued":
      if (!draft.approvals.some((r) => r.id === action.request.id)) {
        draft.approvals.push(action.request);
        draft.questions.push(action.request.id);
      }
      return;
    case "elicitation_enqueued":
      if (!draft.elicitations.some((q) => q.id === action.question.id)) {
        draft.elicitations.push(action.question);
        draft.questions.push(action.question.id);
      }
      return;
    case "elicitation_settled":
      draft.elicitations = draft.elicitations.filter((q) => q.id !== action.id);
      draft.questions = draft.questions.filter((id) => id !== action.id);
      return;
    case "approval_settled":
      draft.approvals = draft.approvals.filter((r) => r.id !== action.id);
      draft.questions = draft.questions.filter((id) => id !== action.id);
      return;
    case "finish":
      // Sub-agents still open (an interrupted run) show what they did.
      flushGroups(draft, fresh);
      draft.finished = { ...action.run, finishedAt: action.now };
      draft.agents = [];
      if (action.run.usage[0]) draft.costUsd = action.run.usage[0].subtree.costUsd;
      return;
    case "turn_end":
      endTurn(draft, action.run, action.now, fresh);
      return;
    case "note":
      pushItem(draft, fresh, {
        kind: "note",
        depth: 0,
        agentName: "",
        text: action.text,
        ...(action.ok !== undefined ? { ok: action.ok } : {}),
      });
      return;
    case "sent":
      pushItem(draft, fresh, { kind: "goal", depth: 0, agentName: "you", text: action.text });
      draft.goalShown = true;
      return;
    case "welcome":
      // The status line names the model the next message runs on from the start, not `…`.
      if (draft.model === "") draft.model = modelIdOf(action.info.model);
      pushItem(draft, fresh, { kind: "welcome", depth: 0, agentName: "", text: "", welcome: action.info });
      return;
    case "earlier":
      pushItems(
        draft,
        fresh,
        action.messages.map((m) =>
          m.role === "user"
            ? { kind: "goal", depth: 0, agentName: "you", text: m.text }
            : { kind: "message", depth: 0, agentName: "root", text: m.text },
        ),
      );
      return;
    case "reset":
      draft.usage = emptyUsage();
      draft.costUsd = 0;
      draft.model = action.model === undefined ? "" : modelIdOf(action.model);
      draft.switches = {};
      draft.seen = {};
      draft.startedAt = undefined;
      draft.lastRootText = "";
      return;
    case "model":
      draft.model = modelIdOf(action.model);
      return;
    case "event":
      applyEvent(draft, action.event, costOf, fresh);
  }
}

/** `provider:id` (how the chat names the model it opens with) as the id alone, as the turns' events name it. */
function modelIdOf(ref: string): string {
  return ref.slice(ref.indexOf(":") + 1);
}
