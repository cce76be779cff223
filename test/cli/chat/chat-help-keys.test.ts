/**
 * The keys `/help` lists tell what the chat does, as docs/chat.md does: Esc at an approval prompt answers
 * no and the turn goes on (Esc again interrupts), as the approval box's own `Esc no` says.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHAT_HELP } from "../../../src/cli/chat/chat-commands.ts";

const docs = readFileSync(join(import.meta.dir, "../../../docs/chat.md"), "utf8");

test("/help: Esc at an approval prompt is no and the turn goes on, as docs/chat.md says", () => {
  const esc = CHAT_HELP.find((line) => line.trim().startsWith("Esc "));
  expect(esc).toBeDefined();
  expect(esc).toContain("at an approval prompt: no, the turn goes on; Esc again interrupts");
  expect(esc).not.toContain("and interrupt)");
  expect(docs).toContain(
    "at an approval prompt: no, as the prompt says (the model reads the denial and the turn goes on",
  );
});

test("/help and docs/chat.md name Esc Esc on an empty input as the way to /rewind", () => {
  expect(CHAT_HELP).toContain("      Esc Esc on an empty input: /rewind");
  expect(docs).toContain("twice on an empty input, the `/rewind` list");
});
