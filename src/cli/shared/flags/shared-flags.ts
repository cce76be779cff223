/**
 * Flags `agent run` and `agent helper` share, declared once: `-o/--output` (and the helper's `--json`
 * alias), read from the raw arguments too, so an error raised before commander hands over the flags
 * (an unknown option, a bad value) still prints its JSON object; and `--record`/`--replay`/`--replay-loose`.
 */
import { type Command, Option } from "commander";

export type OutputFormat = "text" | "json" | "stream-json";

/** `-o, --output <format>` limited to `formats`, default text. */
export function outputOption(formats: readonly OutputFormat[]): Option {
  return new Option("-o, --output <format>", "what stdout carries").choices(formats).default("text");
}

const JSON_FORMATS = new Set(["json", "stream-json"]);

/** True when the arguments ask for JSON on stdout (`--json`, `-o json`, `--output=stream-json`, `-ojson`). */
export function jsonRequested(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") return false;
    if (arg === "--json") return true;
    if (arg === "-o" || arg === "--output") {
      if (JSON_FORMATS.has(args[i + 1] ?? "")) return true;
      continue;
    }
    const inline = arg.startsWith("--output=")
      ? arg.slice(9)
      : arg.startsWith("-o")
        ? arg.slice(2)
        : undefined;
    if (inline !== undefined && JSON_FORMATS.has(inline.replace(/^=/, ""))) return true;
  }
  return false;
}

/** `--record`, `--replay` and `--replay-loose` as commander parses them. */
export interface CassetteFlags {
  record?: string;
  replay?: string;
  replayLoose?: boolean;
}

/** The cassette options, in help order. */
export function cassetteOptions(): Option[] {
  return [
    new Option("--record <file>", "write every model exchange to a cassette"),
    new Option("--replay <file>", "serve model exchanges from a cassette (no key, no network)"),
    new Option(
      "--replay-loose",
      "with --replay: serve the cassette even when a request differs from the recorded one (model, tools, goal, turn)",
    ),
  ];
}

/**
 * `-o json` as an alias of `--json` on every command that has `--json` and no `-o` of its own (`agent
 * models`, `sessions list`, `mcp list`, `skills list`, ...), so the flag that works on run and helper
 * works everywhere. Applied once to the whole program (program.ts).
 */
export function acceptOutputJson(command: Command): void {
  for (const sub of command.commands) acceptOutputJson(sub);
  const has = (flag: string) => command.options.some((o) => o.long === flag || o.short === flag);
  if (!has("--json") || has("--output") || has("-o")) return;
  command
    .addOption(new Option("-o, --output <format>", "json is the same as --json").choices(["text", "json"]))
    .hook("preAction", (_self, action) => {
      if (action.opts().output === "json") action.setOptionValue("json", true);
    });
}
