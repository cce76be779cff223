/** `/model` takes one line: a pasted rest is counted as ignored, never part of the name. */
import { expect, test } from "bun:test";
import { parseSlashCommand } from "../../../src/cli/chat/chat-commands.ts";

test("/model NAME with more lines pasted after it: the first line is the name, the rest counted as ignored", () => {
  expect(parseSlashCommand("/model best\nhello")).toEqual({ name: "model", arg: "best", ignoredLines: 1 });
  expect(parseSlashCommand("/model  opus \r\nsay hi\n\nand more\n")).toEqual({
    name: "model",
    arg: "opus",
    ignoredLines: 2,
  });
  expect(parseSlashCommand("/model best")).toEqual({ name: "model", arg: "best" });
  expect(parseSlashCommand("/model")).toEqual({ name: "model" });
});
