import { describe, expect, test } from "bun:test";
import { continueMessage, initialMessage } from "../../../src/agents/loop/perceive.ts";
import {
  closeInterruptedTurn,
  earlierInputs,
  earlierMessages,
  INTERRUPTED_REPLY,
  userWords,
} from "../../../src/cli/chat/chat-history.ts";
import { isSmallTalk } from "../../../src/cli/chat/chat-tier.ts";
import type { Message } from "../../../src/kernel/index.ts";

const facts = { root: "/w", entries: ["a.ts"], more: 0 };

describe("the earlier conversation", () => {
  test("a user message shows the user's own words, whatever the loop wrapped around them", () => {
    expect(userWords(initialMessage("fix it", ["look at a.ts"], facts))).toBe("fix it");
    expect(userWords(initialMessage("two\nlines", [], facts))).toBe("two\nlines");
    expect(userWords(continueMessage("and then?", []))).toBe("and then?");
    expect(userWords("plain text")).toBe("plain text");
  });

  test("scrollback keeps user messages and the assistant's text; ↑ gets the user's inputs", () => {
    const messages: Message[] = [
      { role: "user", content: initialMessage("first", [], facts) },
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "t1", name: "read_file", arguments: { path: "a.ts" } }],
      },
      { role: "tool", toolCallId: "t1", toolName: "read_file", content: "x", isError: false },
      { role: "assistant", parts: [{ type: "text", text: "The answer." }] },
      { role: "user", content: continueMessage("second", []) },
    ];
    expect(earlierMessages(messages)).toEqual([
      { role: "user", text: "first" },
      { role: "assistant", text: "The answer." },
      { role: "user", text: "second" },
    ]);
    expect(earlierInputs(messages)).toEqual(["first", "second"]);
  });

  test("a conversation ending on the user's message gets a reply saying it was interrupted, once", () => {
    const messages: Message[] = [{ role: "user", content: continueMessage("slow story", []) }];
    closeInterruptedTurn(messages);
    closeInterruptedTurn(messages);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toEqual({ role: "assistant", parts: [{ type: "text", text: INTERRUPTED_REPLY }] });
  });
});

describe("small talk", () => {
  test("a short message without code or files is small talk; anything about work is not", () => {
    for (const text of ["hello", "thanks!", "what can you do?", "good morning"])
      expect(isSmallTalk(text)).toBe(true);
    for (const text of [
      "fix the bug in greet.js",
      "read src/index.ts",
      "add a test",
      "what does `x` do",
      "hello\nthere",
      "",
      "tell me about the history of the Roman empire and its fall in great detail please",
    ])
      expect(isSmallTalk(text)).toBe(false);
  });
});
