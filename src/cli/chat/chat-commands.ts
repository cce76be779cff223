/** The chat's slash commands: what a line starting with `/name` asks for. Pure; chat-session.ts acts. */

/** Commands without an argument. */
type SimpleName = "help" | "clear" | "cost" | "compact" | "quit";

export type SlashCommand =
  | { name: SimpleName }
  | { name: "model"; arg?: string }
  | { name: "unknown"; text: string };

const SIMPLE: readonly string[] = ["help", "clear", "cost", "compact", "quit"] satisfies SimpleName[];

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
  const match = /^\/([a-z]+|\?)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  const name = ALIASES[match[1] ?? ""] ?? match[1] ?? "";
  const arg = match[2]?.trim() ?? "";
  if (name === "model") return arg === "" ? { name: "model" } : { name: "model", arg };
  if (isSimple(name)) return { name };
  return { name: "unknown", text: `/${match[1]}` };
}

/** What `/help` prints: the commands, then the keys. */
export const CHAT_HELP: readonly string[] = [
  "/help             this list",
  "/clear            start a new conversation (a new session)",
  "/model [MODEL]    show the model, or use MODEL (tier, provider:model or id) for the next messages",
  "/cost             tokens and cost of this chat so far",
  "/compact          summarise the older part of the conversation",
  "/quit             leave (also Ctrl-D on an empty input)",
  "keys: Enter send · \\ then Enter, Ctrl-J or Alt+Enter newline · ↑/↓ earlier inputs · Esc clear the input",
  "      Ctrl-C interrupt the running turn (on an empty input: quit) · Esc at an approval prompt: no",
];
