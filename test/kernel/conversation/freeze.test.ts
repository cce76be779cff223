/** Deep-freezing history messages (src/kernel/conversation/freeze.ts): everything a message holds. */
import { expect, test } from "bun:test";
import { freezeHistory, freezeMessage } from "../../../src/kernel/conversation/freeze.ts";
import type {
  AssistantMessage,
  Message,
  ToolResultMessage,
} from "../../../src/kernel/conversation/messages.ts";

test("an assistant message is frozen with its parts array, each part and tool-call arguments, nested objects included", () => {
  const message: AssistantMessage = {
    role: "assistant",
    parts: [
      { type: "reasoning", text: "thinking", signature: "sig", provider: "anthropic" },
      { type: "text", text: "hi" },
      { type: "tool_call", id: "c1", name: "exec", arguments: { command: "ls", env: { A: ["1"] } } },
    ],
  };
  expect(freezeMessage(message)).toBe(message);
  expect(Object.isFrozen(message)).toBe(true);
  expect(Object.isFrozen(message.parts)).toBe(true);
  for (const part of message.parts) expect(Object.isFrozen(part)).toBe(true);
  const call = message.parts[2];
  if (call?.type !== "tool_call") throw new Error("shape");
  expect(Object.isFrozen(call.arguments)).toBe(true);
  expect(Object.isFrozen(call.arguments.env)).toBe(true);
  expect(Object.isFrozen((call.arguments.env as { A: string[] }).A)).toBe(true);
  // Test files are ES modules, strict: a write throws.
  expect(() => {
    call.arguments.command = "rm -rf /";
  }).toThrow(TypeError);
  expect(() => message.parts.push({ type: "text", text: "more" })).toThrow(TypeError);
});

test("a tool result's images are frozen", () => {
  const result: ToolResultMessage = {
    role: "tool",
    toolCallId: "c1",
    toolName: "read_file",
    content: "an image",
    isError: false,
    images: [{ type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" }],
  };
  freezeMessage(result);
  expect(Object.isFrozen(result.images)).toBe(true);
  expect(Object.isFrozen(result.images?.[0])).toBe(true);
  expect(() => {
    result.content = "changed";
  }).toThrow(TypeError);
});

test("a shallowly frozen message still gets its parts frozen", () => {
  const parts: AssistantMessage["parts"] = [{ type: "text", text: "hi" }];
  const message: AssistantMessage = Object.freeze({ role: "assistant", parts });
  freezeMessage(message);
  expect(Object.isFrozen(parts)).toBe(true);
  expect(Object.isFrozen(parts[0])).toBe(true);
});

test("freezeHistory freezes every message but leaves the array itself growable", () => {
  const history: Message[] = [
    { role: "user", content: "a" },
    { role: "assistant", parts: [{ type: "text", text: "b" }] },
  ];
  expect(freezeHistory(history)).toBe(history);
  expect(history.every((m) => Object.isFrozen(m))).toBe(true);
  expect(Object.isFrozen(history)).toBe(false);
  history.push({ role: "user", content: "c" });
  expect(history).toHaveLength(3);
});

test("a message holding itself is walked once", () => {
  const args: Record<string, unknown> = { path: "a" };
  args.self = args;
  const message: AssistantMessage = {
    role: "assistant",
    parts: [{ type: "tool_call", id: "c1", name: "read_file", arguments: args }],
  };
  freezeMessage(message);
  expect(Object.isFrozen(args)).toBe(true);
});
