/**
 * Control keys that reach Ink in one read ("\u0017\u0017": two Ctrl-W pressed quickly, or delivered together
 * on a loaded machine) count as one press each, in every input handler (use-keys.ts).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import type { ChatInput as ChatInputValue } from "../../../../src/ui/chat-types.ts";
import { ChatInput } from "../../../../src/ui/ink/chat/chat-input.tsx";
import { controlKeys, splitControlKeys } from "../../../../src/ui/ink/views/use-keys.ts";
import { until } from "../../mount-app.tsx";

afterEach(cleanup);

describe("control keys in one read", () => {
  test("two Ctrl-W in one read delete two words of the chat input", async () => {
    const sent: ChatInputValue[] = [];
    const { stdin, lastFrame } = render(
      <ChatInput colors={false} history={[]} onInput={(input) => sent.push(input)} />,
    );
    await until(() => (lastFrame() ?? "").includes("Enter send"), "the input box");
    stdin.write("one two three");
    await until(() => (lastFrame() ?? "").includes("one two three"), "the typed text");
    stdin.write("\u0017\u0017");
    await until(() => !(lastFrame() ?? "").includes("two"), "two words deleted");
    stdin.write("\r");
    await until(() => sent.length === 1, "the message");
    expect(sent[0]).toMatchObject({ kind: "message", text: "one " });
  });

  test("only reads made wholly of Ctrl-letter keys are split; Tab, Enter, Backspace and text are not", () => {
    expect(controlKeys("\u0003\u0003")).toEqual(["c", "c"]);
    expect(controlKeys("\u0017\u0004")).toEqual(["w", "d"]);
    expect(controlKeys("\u0003")).toBeUndefined();
    expect(controlKeys("\t\t")).toBeUndefined();
    expect(controlKeys("\r\r")).toBeUndefined();
    expect(controlKeys("\u0003a")).toBeUndefined();
    expect(controlKeys("ab")).toBeUndefined();
  });

  test("Ctrl-U and typed text in one read clear the box, then type the text: /rewind stays a command", async () => {
    const sent: ChatInputValue[] = [];
    const { stdin, lastFrame } = render(
      <ChatInput colors={false} history={[]} onInput={(input) => sent.push(input)} />,
    );
    await until(() => (lastFrame() ?? "").includes("Enter send"), "the input box");
    stdin.write("left over");
    await until(() => (lastFrame() ?? "").includes("left over"), "the typed text");
    stdin.write("\u0015/rewind");
    await until(
      () => (lastFrame() ?? "").includes("/rewind") && !(lastFrame() ?? "").includes("left over"),
      "the new text",
    );
    stdin.write("\r");
    await until(() => sent.length === 1, "the command line");
    expect(sent[0]).toMatchObject({ kind: "message", text: "/rewind" });
  });

  test("a read mixing control keys and text is split into presses, in order", () => {
    expect(splitControlKeys("\u0015/rewind")).toEqual([
      { input: "u", ctrl: true },
      { input: "/rewind", ctrl: false },
    ]);
    expect(splitControlKeys("ab\u0017cd")).toEqual([
      { input: "ab", ctrl: false },
      { input: "w", ctrl: true },
      { input: "cd", ctrl: false },
    ]);
    expect(splitControlKeys("line\rnext")).toBeUndefined();
    expect(splitControlKeys("\u0003")).toBeUndefined();
  });
});
