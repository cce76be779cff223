import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import { parseSlashCommand } from "../../../../src/cli/chat/chat-commands.ts";
import { effectiveArgs } from "../../../../src/cli/program.ts";
import type { ApprovalDecision } from "../../../../src/kernel/run-events/approvals.ts";
import { makeEvent } from "../../../../src/kernel/run-events/events.ts";
import type { ChatInput } from "../../../../src/ui/chat.ts";
import { ChatController } from "../../../../src/ui/ink/chat/chat-controller.ts";
import { emptyInput } from "../../../../src/ui/ink/chat/chat-input-state.ts";
import { ApprovalPrompt } from "../../../../src/ui/ink/prompts/approval-prompt.tsx";
import { InkApprover } from "../../../../src/ui/ink/prompts/ink-approver.ts";
import { UiStore } from "../../../../src/ui/ink/state/store.ts";
import { feedKeys } from "../../feed-keys.ts";
import { approvalRequest, finishedRun, root } from "../../fixtures.ts";
import { renderChatApp, until } from "../../mount-app.tsx";

afterEach(() => cleanup());

describe("chat input editing", () => {
  test("typing then Enter sends the text and empties the box", () => {
    const { state, outcomes } = feedKeys([["hel"], ["lo"], ["", { return: true }]]);
    expect(outcomes).toEqual([{ kind: "submit", text: "hello" }]);
    expect(state.text).toBe("");
    expect(state.history).toEqual(["hello"]);
  });

  test("a newline: \\ then Enter, Ctrl-J or Alt+Enter; Enter on blank text sends nothing", () => {
    const { state, outcomes } = feedKeys([
      ["a\\"],
      ["", { return: true }],
      ["b"],
      ["j", { ctrl: true }],
      ["c"],
      ["", { return: true, meta: true }],
      ["d"],
    ]);
    expect(outcomes).toEqual([]);
    expect(state.text).toBe("a\nb\nc\nd");
    expect(feedKeys([["  "], ["", { return: true }]]).outcomes).toEqual([]);
  });

  test("a chunk typed quickly with Enter at its end is sent; a pasted line end inside it is a newline", () => {
    expect(feedKeys([["hi there\r"]]).outcomes).toEqual([{ kind: "submit", text: "hi there" }]);
    const pasted = feedKeys([["one\r\ntwo"]]);
    expect(pasted.outcomes).toEqual([]);
    expect(pasted.state.text).toBe("one\ntwo");
  });

  test("Backspace deletes; Esc keeps the draft", () => {
    expect(feedKeys([["abc"], ["", { backspace: true }]]).state.text).toBe("ab");
    expect(feedKeys([["abc"], ["", { escape: true }]]).state.text).toBe("abc");
    // Esc then a quickly typed key arrive as one Alt+key: the key is typed, not lost.
    expect(feedKeys([["abc"], [" ", { meta: true }], ["d"]]).state.text).toBe("abc d");
  });

  test("Up and Down walk this session's inputs and come back to the text being written", () => {
    const start = emptyInput(["first", "second"]);
    const up = feedKeys([["draft"], ["", { upArrow: true }]], start);
    expect(up.state.text).toBe("second");
    const upUp = feedKeys(
      [
        ["", { upArrow: true }],
        ["", { upArrow: true }],
        ["", { upArrow: true }],
      ],
      up.state,
    );
    expect(upUp.state.text).toBe("first");
    const back = feedKeys(
      [
        ["", { downArrow: true }],
        ["", { downArrow: true }],
      ],
      upUp.state,
    );
    expect(back.state.text).toBe("draft");
  });

  test("Ctrl-C clears the text; on an empty box it asks for a second one; Ctrl-D quits only on an empty box", () => {
    expect(feedKeys([["abc"], ["c", { ctrl: true }]])).toMatchObject({ state: { text: "" }, outcomes: [] });
    const once = feedKeys([["c", { ctrl: true }]]);
    expect(once.outcomes).toEqual([]);
    expect(once.state.quitArmed).toBe(true);
    expect(feedKeys([["c", { ctrl: true }]], once.state).outcomes).toEqual([{ kind: "quit" }]);
    // Any other key in between disarms it.
    expect(feedKeys([["x"], ["", { backspace: true }], ["c", { ctrl: true }]], once.state).outcomes).toEqual(
      [],
    );
    expect(
      feedKeys(
        [
          ["c", { ctrl: true }],
          ["c", { ctrl: true }],
        ],
        emptyInput(["a"]),
      ).outcomes,
    ).toEqual([{ kind: "quit" }]);
    expect(feedKeys([["abc"], ["d", { ctrl: true }]]).outcomes).toEqual([]);
    expect(feedKeys([["d", { ctrl: true }]]).outcomes).toEqual([{ kind: "quit" }]);
  });

  test("Esc twice on an empty box opens the rewind list; text, or another key in between, does not", () => {
    const once = feedKeys([["", { escape: true }]]);
    expect(once.outcomes).toEqual([]);
    expect(once.state.rewindArmed).toBe(true);
    expect(feedKeys([["", { escape: true }]], once.state).outcomes).toEqual([{ kind: "rewind" }]);
    // Another key in between disarms it.
    expect(
      feedKeys(
        [
          ["", { upArrow: true }],
          ["", { escape: true }],
        ],
        once.state,
      ).outcomes,
    ).toEqual([]);
    expect(
      feedKeys(
        [
          ["c", { ctrl: true }],
          ["", { escape: true }],
        ],
        once.state,
      ).outcomes,
    ).toEqual([]);
    // A draft stays, whatever the number of Esc.
    const draft = feedKeys([["abc"], ["", { escape: true }], ["", { escape: true }]]);
    expect(draft.outcomes).toEqual([]);
    expect(draft.state.text).toBe("abc");
  });
});

describe("slash commands", () => {
  test("known names, /model with and without a model, aliases, unknown names", () => {
    expect(parseSlashCommand("/help")).toEqual({ name: "help" });
    expect(parseSlashCommand(" /clear ")).toEqual({ name: "clear" });
    expect(parseSlashCommand("/model")).toEqual({ name: "model" });
    expect(parseSlashCommand("/model fast")).toEqual({ name: "model", arg: "fast" });
    expect(parseSlashCommand("/exit")).toEqual({ name: "quit" });
    expect(parseSlashCommand("/compact")).toEqual({ name: "compact" });
    expect(parseSlashCommand("/frobnicate now")).toEqual({ name: "unknown", text: "/frobnicate" });
  });

  test("a message that starts with a path, or plain text, is a message", () => {
    expect(parseSlashCommand("/usr/lib is full")).toBeUndefined();
    expect(parseSlashCommand("fix the tests")).toBeUndefined();
  });
});

describe("agent alone", () => {
  test("is agent chat on a terminal, and unchanged (help) elsewhere", () => {
    expect(effectiveArgs([], true)).toEqual(["chat"]);
    expect(effectiveArgs([], false)).toEqual([]);
    expect(effectiveArgs(["run", "x"], true)).toEqual(["run", "x"]);
  });
});

describe("the chat view", () => {
  function mount() {
    const store = new UiStore({ flushMs: 0 });
    const chat = new ChatController();
    const approver = new InkApprover(store);
    let interrupts = 0;
    const app = renderChatApp(store, {
      chat,
      approver,
      onInterrupt: () => {
        interrupts++;
      },
    });
    return { ...app, store, chat, interrupts: () => interrupts };
  }

  test("shows the input box while waiting; a typed message is handed over and the box goes away", async () => {
    const { lastFrame, stdin, chat } = mount();
    const next = chat.next();
    await until(() => (lastFrame() ?? "").includes("Enter send"), "the input box");
    stdin.write("what is 2+2");
    await until(() => (lastFrame() ?? "").includes("what is 2+2"), "the typed text");
    stdin.write("\r");
    expect(await next).toEqual<ChatInput>({ kind: "message", text: "what is 2+2" });
    await until(() => !(lastFrame() ?? "").includes("Enter send"), "the box to go");
    expect(chat.history).toEqual(["what is 2+2"]);
  });

  test("Ctrl-J (a line feed from the terminal) and Alt+Enter add lines; Enter sends them all", async () => {
    const { lastFrame, stdin, chat } = mount();
    const next = chat.next();
    await until(() => (lastFrame() ?? "").includes("Enter send"), "the input box");
    stdin.write("one");
    await until(() => (lastFrame() ?? "").includes("one"), "the first line");
    stdin.write("\n");
    stdin.write("two");
    await until(() => (lastFrame() ?? "").includes("two"), "the second line");
    stdin.write("\u001b\r");
    stdin.write("three");
    await until(() => (lastFrame() ?? "").includes("three"), "the third line");
    stdin.write("\r");
    expect(await next).toEqual<ChatInput>({ kind: "message", text: "one\ntwo\nthree" });
  });

  test("Ctrl-C during a turn interrupts it; a turn's end leaves its answer and status in the history", async () => {
    const { lastFrame, stdin, store, interrupts } = mount();
    store.dispatch({
      type: "event",
      event: makeEvent(root, "session_start", {
        sessionId: "s-1",
        goal: "hi",
        agentName: "root",
        model: "m-1",
        cwd: "/w",
      }),
    });
    store.flush();
    await until(() => (lastFrame() ?? "").includes("root: hi"), "the goal line");
    stdin.write("\u0003");
    await until(() => interrupts() === 1, "the interrupt");
    store.dispatch({ type: "turn_end", run: finishedRun({ answer: "Four." }), now: Date.now() });
    store.dispatch({ type: "note", text: "a note line" });
    store.flush();
    await until(() => (lastFrame() ?? "").includes("a note line"), "the note");
    const frame = lastFrame() ?? "";
    expect(frame).toContain("Four.");
    expect(frame).toMatch(/■ success \(stop\)/);
  });

  test("Esc at an approval prompt is no, as the prompt says: the call is denied, the turn is not interrupted", async () => {
    const decisions: ApprovalDecision[] = [];
    let interrupts = 0;
    const { stdin, lastFrame } = render(
      <ApprovalPrompt
        request={approvalRequest("r1")}
        colors={false}
        onDecision={(d) => decisions.push(d)}
        onInterrupt={() => {
          interrupts += 1;
        }}
      />,
    );
    await until(() => (lastFrame() ?? "").includes("y yes once"), "the prompt");
    stdin.write("\u001b");
    await until(() => decisions.length === 1, "the decision");
    expect(decisions).toEqual([{ kind: "deny" }]);
    // The interrupt would have come with the decision, in the same key handler.
    expect(interrupts).toBe(0);
  });
});
