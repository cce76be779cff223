/** The chat's `/` menu, `/help` and `/name` lines with skills (chat-commands.ts). */
import { expect, test } from "bun:test";
import {
  CHAT_COMMANDS,
  chatCommandsWith,
  isSkillLine,
  parseSlashCommand,
  skillHelp,
} from "../../../src/cli/chat/chat-commands.ts";

const skills = [
  { name: "code-review", description: "Reviews a change.", argumentHint: "[file]" },
  { name: "help", description: "A skill named like a command." },
];

test("the / menu: the built-in commands, then the skills with their argument hint; a command's name wins", () => {
  const menu = chatCommandsWith(skills);
  expect(menu.slice(0, CHAT_COMMANDS.length)).toEqual([...CHAT_COMMANDS]);
  expect(menu.slice(CHAT_COMMANDS.length)).toEqual([
    { name: "code-review", description: "[file] · (skill) Reviews a change." },
  ]);
});

test("/name args is a skill line only for a known skill; /usr/lib stays a message", () => {
  expect(isSkillLine("/code-review src/a.ts", skills)).toBe(true);
  expect(isSkillLine("/usr/lib is full", skills)).toBe(false);
  expect(parseSlashCommand("/code-review src/a.ts")).toBeUndefined();
});

test("/help lists the skills after the commands (not one a command hides)", () => {
  expect(skillHelp(skills)).toEqual(["skills (docs/skills.md):", "/code-review [file] Reviews a change."]);
  expect(skillHelp([])).toEqual([]);
});
