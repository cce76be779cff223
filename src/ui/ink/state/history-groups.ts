/**
 * Where a finished item goes: straight to the history, or, for a running sub-agent, into its group, which
 * enters the history whole when the sub-agent returns (parallel sub-agents' lines never interleave).
 * Mutates a draft the reducer owns.
 */
import type { HistoryItem, UiState } from "./state-types.ts";

/** A history item before it has its key. */
export type NewItem = Omit<HistoryItem, "key">;

/** Finished lines of a running sub-agent shown under it in the live area. */
export const RECENT_LINES = 3;

/** Appends a finished item; `fresh`: the view printed the current history, so start a new generation. */
export function pushItem(draft: UiState, fresh: boolean, item: NewItem): void {
  if (fresh) {
    draft.history = [];
    draft.historyGeneration += 1;
  }
  draft.history.push({ ...item, key: draft.nextKey });
  draft.nextKey += 1;
}

/** Appends items in order (only the first may start a new generation). */
export function pushItems(draft: UiState, fresh: boolean, items: readonly NewItem[]): void {
  let first = fresh;
  for (const item of items) {
    pushItem(draft, first, item);
    first = false;
  }
}

/** One line of a finished item for the live area (a sub-agent's recent lines). */
function recentLine(item: NewItem): string | undefined {
  if (item.kind === "message" || item.kind === "delegate") return undefined;
  const mark = item.kind === "warning" ? "⚠" : item.ok === false || item.kind === "error" ? "✗" : "✓";
  return `${mark} ${item.text}`;
}

/** Sends an item of agent `agentId` to its group when it has one (a running sub-agent), else to the history. */
export function route(draft: UiState, fresh: boolean, agentId: string, item: NewItem): void {
  const group = draft.groups[agentId];
  if (!group) {
    pushItem(draft, fresh, item);
    return;
  }
  group.push(item); // the draft's own copy (reduceBatch copies each group once per batch)
  const line = recentLine(item);
  if (line === undefined) return;
  const agent = draft.agents.find((a) => a.id === agentId);
  if (agent) agent.recent = [...(agent.recent ?? []), line].slice(-RECENT_LINES);
}

/** Starts the group of a sub-agent with its first item (the delegate line). */
export function openGroup(draft: UiState, childId: string, first: NewItem): void {
  draft.groups[childId] = [first];
}

/** Ends a sub-agent's group with `last` (its return line) and routes it whole to the parent. */
export function closeGroup(
  draft: UiState,
  fresh: boolean,
  childId: string,
  parentId: string,
  last: NewItem,
): void {
  const items = takeGroup(draft, childId);
  items.push(last);
  const parentGroup = draft.groups[parentId];
  if (parentGroup) for (const item of items) parentGroup.push(item);
  else pushItems(draft, fresh, items);
}

/** Removes a group and the groups of agents below it (ids extend their parent's), in order. */
function takeGroup(draft: UiState, id: string): NewItem[] {
  const items = draft.groups[id] ?? [];
  delete draft.groups[id];
  // Groups below it are left only when a run ended early (a child returns before its parent does).
  for (const key of Object.keys(draft.groups)) {
    if (key.startsWith(`${id}/`) && draft.groups[key])
      for (const item of takeGroup(draft, key)) items.push(item);
  }
  return items;
}

/** Flushes every open group to the history (a run or chat turn ended with sub-agents still open). */
export function flushGroups(draft: UiState, fresh: boolean): void {
  const items = Object.keys(draft.groups)
    .filter((id) => !Object.keys(draft.groups).some((other) => other !== id && id.startsWith(`${other}/`)))
    .flatMap((id) => takeGroup(draft, id));
  pushItems(draft, fresh, items);
}
