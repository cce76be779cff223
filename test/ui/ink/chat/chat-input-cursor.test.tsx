import { describe, expect, test } from "bun:test";
import { parseSlashCommand } from "../../../../src/cli/chat/chat-commands.ts";
import { emptyInput, type InputKey } from "../../../../src/ui/ink/chat/chat-input-state.ts";
import { completeSlash } from "../../../../src/ui/slash-commands.ts";
import { feedKeys } from "../../feed-keys.ts";

const LEFT: InputKey = { leftArrow: true };
const RIGHT: InputKey = { rightArrow: true };

describe("the chat input's cursor", () => {
  test("Left and Right move it; typing inserts there; Backspace and Delete act around it", () => {
    const moved = feedKeys([["helo"], ["", LEFT], ["l"]]);
    expect(moved.state).toMatchObject({ text: "hello", cursor: 4 });
    expect(feedKeys([["", RIGHT], ["!"]], moved.state).state.text).toBe("hello!");
    expect(feedKeys([["", { backspace: true }]], moved.state).state).toMatchObject({
      text: "helo",
      cursor: 3,
    });
    expect(feedKeys([["", { delete: true }]], moved.state).state).toMatchObject({ text: "hell", cursor: 4 });
    // Enter sends the whole text wherever the cursor is.
    expect(
      feedKeys(
        [
          ["", LEFT],
          ["", LEFT],
          ["", { return: true }],
        ],
        moved.state,
      ).outcomes,
    ).toEqual([{ kind: "submit", text: "hello" }]);
  });

  test("Home/End and Ctrl-A/E go to the line's start and end; Ctrl-U and Ctrl-K delete to them", () => {
    const start = feedKeys([["one two three"], ["a", { ctrl: true }]]).state;
    expect(start.cursor).toBe(0);
    expect(feedKeys([["> "]], start).state.text).toBe("> one two three");
    expect(feedKeys([["", { end: true }]], start).state.cursor).toBe(13);
    const middle = feedKeys(
      [
        ["", { home: true }],
        ["", RIGHT],
        ["", RIGHT],
        ["", RIGHT],
        ["", RIGHT],
      ],
      start,
    ).state;
    expect(middle.cursor).toBe(4);
    expect(feedKeys([["k", { ctrl: true }]], middle).state).toMatchObject({ text: "one ", cursor: 4 });
    expect(feedKeys([["u", { ctrl: true }]], middle).state).toMatchObject({ text: "two three", cursor: 0 });
    expect(feedKeys([["e", { ctrl: true }]], middle).state.cursor).toBe(13);
  });

  test("Alt-B/F and Ctrl+Left/Right move by word; Ctrl-W and Alt+Backspace delete the word before", () => {
    const typed = feedKeys([["git commit -m fix"]]).state;
    const back = feedKeys(
      [
        ["b", { meta: true }],
        ["b", { meta: true }],
      ],
      typed,
    ).state;
    expect(back).toMatchObject({ text: "git commit -m fix", cursor: 11 });
    expect(feedKeys([["", { ...LEFT, ctrl: true }]], back).state.cursor).toBe(4);
    expect(feedKeys([["f", { meta: true }]], back).state.cursor).toBe(13);
    expect(feedKeys([["", { ...RIGHT, ctrl: true }]], back).state.cursor).toBe(13);
    expect(feedKeys([["w", { ctrl: true }]], typed).state).toMatchObject({
      text: "git commit -m ",
      cursor: 14,
    });
    expect(feedKeys([["", { backspace: true, meta: true }]], back).state.text).toBe("git -m fix");
    // Alt with any other key still types it (Esc then a quickly typed key).
    expect(feedKeys([[" ", { meta: true }], ["x"]], typed).state.text).toBe("git commit -m fix x");
  });

  test("Up and Down move between lines of a multi-line text, and walk history from its first and last line", () => {
    const start = emptyInput(["earlier"]);
    const twoLines = feedKeys([["first line"], ["j", { ctrl: true }], ["second"]], start).state;
    const up = feedKeys([["", { upArrow: true }]], twoLines).state;
    expect(up).toMatchObject({ text: "first line\nsecond", cursor: 6 });
    expect(feedKeys([["X"]], up).state.text).toBe("first Xline\nsecond");
    const history = feedKeys([["", { upArrow: true }]], up).state;
    expect(history).toMatchObject({ text: "earlier", cursor: 7 });
    const down = feedKeys([["", { downArrow: true }]], history).state;
    expect(down).toMatchObject({ text: "first line\nsecond", cursor: 17 });
  });

  test("a surrogate pair is one character for Left, Backspace and Delete", () => {
    const typed = feedKeys([["a😀b"], ["", LEFT], ["", LEFT]]).state;
    expect(typed.cursor).toBe(1);
    expect(feedKeys([["", { delete: true }]], typed).state.text).toBe("ab");
    expect(
      feedKeys(
        [
          ["", RIGHT],
          ["", { backspace: true }],
        ],
        typed,
      ).state.text,
    ).toBe("ab");
  });

  test("\\ then Enter makes a newline at the cursor", () => {
    const state = feedKeys([["ab"], ["", LEFT], ["\\"], ["", { return: true }]]).state;
    expect(state).toMatchObject({ text: "a\nb", cursor: 2 });
  });
});

describe("Tab completes a / command", () => {
  const commands = [
    { name: "help", description: "" },
    { name: "cost", description: "" },
    { name: "compact", description: "" },
    { name: "review", description: "" },
    { name: "release", description: "" },
  ];
  test("one match: the whole name and a space; several: what they share; nothing to add: undefined", () => {
    expect(completeSlash("/he", commands)).toBe("/help ");
    expect(completeSlash("/r", commands)).toBe("/re");
    expect(completeSlash("/co", commands)).toBeUndefined();
    expect(completeSlash("/zz", commands)).toBeUndefined();
    expect(completeSlash("hello", commands)).toBeUndefined();
    expect(completeSlash("/help me", commands)).toBeUndefined();
  });

  test("`/` alone is /help, never a message to the model", () => {
    expect(parseSlashCommand("/")).toEqual({ name: "help" });
    expect(parseSlashCommand(" / ")).toEqual({ name: "help" });
  });
});
