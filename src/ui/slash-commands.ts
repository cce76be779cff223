/**
 * The chat's `/` commands as the input box lists them while the user types (as Claude Code and Gemini CLI
 * do), and the nearest known command for one that is not (edit distance through fastest-levenshtein,
 * https://github.com/ka-weihe/fastest-levenshtein). Pure: the Ink list (ink/chat/slash-command-list.tsx) and the
 * chat command's handling of an unknown command share it.
 */
import { distance } from "fastest-levenshtein";

/** A command the chat offers: `name` without its slash. */
export interface ChatCommand {
  name: string;
  description: string;
}

/**
 * What the input shows for `/...`: nothing (not a command, or arguments being typed), the commands that
 * start with what was typed, or that none does, with the nearest command when one is near enough.
 */
export type SlashMatch =
  | { kind: "none" }
  | { kind: "list"; commands: ChatCommand[] }
  | { kind: "unknown"; typed: string; suggestion?: ChatCommand };

/** The command name typed at the start of `input` (`/mod` → `mod`), or undefined when it is no command. */
function typedName(input: string): string | undefined {
  const match = /^\/(\S*)$/.exec(input);
  return match?.[1]?.toLowerCase();
}

export function matchSlash(input: string, commands: readonly ChatCommand[]): SlashMatch {
  const typed = typedName(input);
  if (typed === undefined) return { kind: "none" };
  const found = commands.filter((c) => c.name.toLowerCase().startsWith(typed));
  if (found.length > 0) return { kind: "list", commands: found };
  const suggestion = nearestCommand(typed, commands);
  return { kind: "unknown", typed, ...(suggestion ? { suggestion } : {}) };
}

/**
 * Tab in the input box (as a shell completes, and as Claude Code's Tab accepts a suggestion,
 * https://code.claude.com/docs/en/interactive-mode): `/mo` becomes `/model ` when one command starts with
 * it, or is extended to what every match shares (with skills `review` and `release`, `/r` → `/re`; `/co`
 * stays, cost and compact share nothing more). Undefined when there is nothing to add.
 */
export function completeSlash(input: string, commands: readonly ChatCommand[]): string | undefined {
  const match = matchSlash(input, commands);
  if (match.kind !== "list") return undefined;
  const names = match.commands.map((c) => c.name);
  const [only] = names;
  if (names.length === 1 && only !== undefined) return `/${only} `;
  let shared = only ?? "";
  for (const name of names) while (!name.startsWith(shared)) shared = shared.slice(0, -1);
  return shared.length > input.length - 1 ? `/${shared}` : undefined;
}

/**
 * The known command nearest to `name` by edit distance, when it is near enough to be a slip: at most 2
 * edits, or a third of the longer name's length (`mdoel` → `model`: a swap is 2 edits). Ties go to the
 * command listed first.
 */
export function nearestCommand(name: string, commands: readonly ChatCommand[]): ChatCommand | undefined {
  const typed = name.replace(/^\//, "").toLowerCase();
  let best: ChatCommand | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const command of commands) {
    const d = distance(typed, command.name.toLowerCase());
    const limit = Math.max(2, Math.floor(Math.max(typed.length, command.name.length) / 3));
    if (d <= limit && d < bestDistance) {
      best = command;
      bestDistance = d;
    }
  }
  return best;
}

/** The line a chat prints for an unknown command: `unknown command /mdoel: did you mean /model?`. */
export function unknownCommandText(name: string, commands: readonly ChatCommand[]): string {
  const typed = name.replace(/^\//, "");
  const nearest = nearestCommand(typed, commands);
  const hint = nearest ? `did you mean /${nearest.name}?` : "/help lists the commands";
  return `unknown command /${typed}: ${hint}`;
}
