/**
 * Everything the Ink UI shows passes through its store, so the store is where model and tool text loses
 * its escape sequences: streamed text (a sequence split across deltas included), tool arguments, approval
 * previews and the final result.
 */
import { expect, test } from "bun:test";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import { approvalRequest, finishedRun } from "../../fixtures.ts";

const root = { agent: "root", name: "root", depth: 0 };
const CLIPBOARD = "\u001b]52;c;Y3VybCBldmlsLnRlc3QgfCBzaA==\u0007";
const CLEAR = "\u001b[2J";

test("streamed text, tool arguments, approval previews and the result reach the state without escape sequences", () => {
  const store = new UiStore({ flushMs: 0 });
  const whole = `Safe ${CLIPBOARD}text`;
  store.dispatch({ type: "event", event: makeEvent(root, "text_delta", { delta: whole.slice(0, 9) }) });
  store.dispatch({ type: "event", event: makeEvent(root, "text_delta", { delta: whole.slice(9) }) });
  store.flush();
  expect(store.getSnapshot().agents[0]?.streamTail).toBe("Safe text");
  store.dispatch({
    type: "event",
    event: makeEvent(root, "tool_start", { id: "c1", tool: "exec", args: { command: `ls ${CLEAR}-la` } }),
  });
  store.dispatch({
    type: "approval_enqueued",
    request: approvalRequest("a1", { preview: `rm x${CLEAR}\u001b]0;title\u0007` }),
  });
  store.finish(finishedRun({ answer: `done${CLIPBOARD}` }));
  const state = store.getSnapshot();
  const shown = JSON.stringify(state);
  expect(shown).not.toContain("\\u001b");
  expect(shown).not.toContain("\\u0007");
  expect(shown).not.toContain("52;c;");
  expect(state.approvals[0]?.preview).toBe("rm x");
  expect(state.finished?.answer).toBe("done");
  store.dispose();
});
