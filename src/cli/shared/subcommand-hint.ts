/**
 * What follows commander's error when a command group meets a word that is none of its subcommands
 * (`agent skills lsit`): a group with a default subcommand (`list`) passes the word to it as an argument,
 * and commander says "too many arguments for 'list'" with no suggestion; `agent models refresh` meets a
 * command that has options, not subcommands. The nearest subcommand (or option) by {@link nearestName},
 * the one suggestion helper, as a line of its own: `(Did you mean agent skills list?)`, or "".
 */
import type { Command } from "commander";
import { nearestName } from "../../kernel/text/nearest-name.ts";

export function subcommandHint(program: Command, args: readonly string[]): string {
  const [groupName, typed] = args;
  if (groupName === undefined || typed === undefined || typed.startsWith("-")) return "";
  const group = program.commands.find((command) => command.name() === groupName);
  if (group === undefined) return "";
  const subcommands = group.commands.map((command) => command.name());
  // A command without subcommands: the word was probably one of its options (`models refresh`).
  const known =
    subcommands.length > 0
      ? subcommands
      : group.options.flatMap((option) => (option.long !== undefined ? [option.long] : []));
  const bare = (name: string): string => name.replace(/^--/, "");
  // A known subcommand met too many arguments (`skills show a b`): commander's message says it all.
  if (subcommands.includes(typed)) return "";
  const near = nearestName(
    typed,
    known.map((name) => bare(name)),
  );
  if (near === undefined) return "";
  const suggestion = subcommands.length > 0 ? near : `--${near}`;
  return `(Did you mean agent ${groupName} ${suggestion}?)\n`;
}
