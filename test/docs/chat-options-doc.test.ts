/**
 * docs/chat.md's synopsis names every option `agent chat` accepts (its commander definition, as
 * `agent chat --help` lists them), so an option a user can pass is never one the page leaves out.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { chatCommand } from "../../src/cli/chat/chat-command.ts";
import { processRunIo } from "../../src/cli/shared/io/command-io.ts";

const synopsis =
  readFileSync(join(import.meta.dir, "..", "..", "docs", "chat.md"), "utf8").split("\n\n")[1] ?? "";

/** The long option names of `agent chat`, as registered. */
function chatOptions(): string[] {
  const program = new Command("agent");
  chatCommand.register(
    program,
    () => Promise.reject(new Error("the session is not loaded here")),
    processRunIo(),
  );
  const chat = program.commands.find((command) => command.name() === "chat");
  return (chat?.options ?? []).flatMap((option) => (option.long ? [option.long] : []));
}

describe("docs/chat.md", () => {
  test("the synopsis names every option of agent chat", () => {
    const options = chatOptions();
    expect(options).toContain("--replay-loose");
    const missing = options.filter((long) => !new RegExp(`${long}(?![\\w-])`).test(synopsis));
    expect(missing).toEqual([]);
  });
});
