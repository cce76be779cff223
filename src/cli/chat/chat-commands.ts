/** The chat's slash commands: what a line starting with `/name` asks for. Pure; chat-session.ts acts. */
import type { ChatCommand } from "../../ui/slash-commands.ts";

/** Commands without an argument. */
type SimpleName = "help" | "clear" | "cost" | "compact" | "rewind" | "quit";

export type SlashCommand =
  | { name: SimpleName }
  | { name: "model"; arg?: string; ignoredLines?: number }
  /** `/plan GOAL`: plan mode for this message (docs/plan-mode.md). */
  | { name: "plan"; goal: string }
  | { name: "unknown"; text: string };

const SIMPLE: readonly string[] = [
  "help",
  "clear",
  "cost",
  "compact",
  "rewind",
  "quit",
] satisfies SimpleName[];

function isSimple(name: string): name is SimpleName {
  return SIMPLE.includes(name);
}
/** Other names for a command. */
const ALIASES: Record<string, string> = { exit: "quit", "?": "help" };

/**
 * The command a line holds, or undefined for a message. Only `/word` (letters, or `?`) as the first word
 * is a command, so a message that starts with a path (`/usr/lib is full`) is sent as it is.
 */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  // A `/` alone (Enter on the menu without choosing) shows the commands; it is not a message to the model.
  if (line.trim() === "/") return { name: "help" };
  const match = /^\/([a-z]+|\?)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  const name = ALIASES[match[1] ?? ""] ?? match[1] ?? "";
  const arg = match[2]?.trim() ?? "";
  if (name === "model") {
    if (arg === "") return { name: "model" };
    // A model name is one line; the rest of a paste (`/model best` then a message) is not part of it, and
    // is named as ignored rather than quoted into the name over several lines.
    const [first = "", ...rest] = arg.split(/\r?\n/);
    const ignoredLines = rest.filter((line) => line.trim() !== "").length;
    return { name: "model", arg: first.trim(), ...(ignoredLines > 0 ? { ignoredLines } : {}) };
  }
  if (name === "plan") return { name: "plan", goal: arg };
  if (isSimple(name)) return { name };
  return { name: "unknown", text: `/${match[1]}` };
}

/** The commands as data: `/help` prints them and the input box lists them as the user types `/`. */
export const CHAT_COMMANDS: readonly ChatCommand[] = [
  { name: "help", description: "this list" },
  {
    name: "clear",
    description: "start a new conversation (a new session); clears the screen and status line",
  },
  {
    name: "model",
    description: "show the model, or /model fast|good|best|smart|auto|<id> for the next messages",
  },
  {
    name: "plan",
    description: "/plan GOAL: read-only tools and a plan you approve, edit or reject before anything changes",
  },
  { name: "cost", description: "tokens and cost of this chat so far" },
  { name: "compact", description: "summarise the older part of the conversation" },
  {
    name: "rewind",
    description: "restore the files the agent changed and/or the conversation to before an earlier message",
  },
  { name: "quit", description: "leave (also Ctrl-D on an empty input, or Ctrl-C twice)" },
];

/** What `/help` prints: the commands, then the keys. */
export const CHAT_HELP: readonly string[] = [
  ...CHAT_COMMANDS.map((c) => `/${c.name.padEnd(17)}${c.description}`),
  "keys: Enter send · \\ then Enter, Ctrl-J or Alt+Enter newline · ↑/↓ earlier inputs · Tab completes a /command",
  "      ←/→, Home/End, Ctrl-A/E, Alt-B/F move · Ctrl-W, Ctrl-U, Ctrl-K delete a word, to the start, to the end",
  // As docs/chat.md and the approval box (`Esc no`) say: Esc answers the prompt, the turn goes on.
  "      Esc interrupt the running turn (at an approval prompt: no, the turn goes on; Esc again interrupts)",
  "      Esc Esc on an empty input: /rewind",
  "      Ctrl-C clear the input (on an empty input: press again to quit) · during a turn: interrupt",
];

/**
 * The `/` menu: the built-in commands, then the user-invocable skills (docs/skills.md), each with its
 * argument hint. A skill named like a built-in command is left out (the command wins).
 */
export function chatCommandsWith(
  skills: readonly { name: string; description: string; argumentHint?: string }[],
): ChatCommand[] {
  const builtIn = new Set(CHAT_COMMANDS.map((c) => c.name));
  const fromSkills = skills
    .filter((s) => !builtIn.has(s.name))
    .map((s) => ({
      name: s.name,
      description: `${s.argumentHint ? `${s.argumentHint} · ` : ""}(skill) ${s.description}`,
    }));
  return [...CHAT_COMMANDS, ...fromSkills];
}

/** True when `line` is `/name …` for one of `skills`: sent as a message, the session runs the skill. */
export function isSkillLine(line: string, skills: readonly { name: string }[]): boolean {
  const name = /^\/(\S+)/.exec(line.trim())?.[1];
  return name !== undefined && skills.some((s) => s.name === name.normalize("NFKC"));
}

/** What `/help` adds for the skills (those a command's name does not hide): one line each. */
export function skillHelp(
  skills: readonly { name: string; description: string; argumentHint?: string }[],
): string[] {
  const builtIn = new Set(CHAT_COMMANDS.map((c) => c.name));
  const shown = skills.filter((s) => !builtIn.has(s.name));
  if (shown.length === 0) return [];
  const usage = (s: (typeof shown)[number]) => `/${s.name}${s.argumentHint ? ` ${s.argumentHint}` : ""}`;
  return ["skills (docs/skills.md):", ...shown.map((s) => `${usage(s).padEnd(17)} ${s.description}`)];
}
