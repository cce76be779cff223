/**
 * `-s/--system` (replaces the built-in system prompt) and `--append-system` (adds to it), shared by
 * `agent run` and `agent helper`; a value starting with `@` names a file to read, as `llm -s` and
 * curl's `-d @file` do. A file that cannot be read is a usage error (exit 2).
 */
import { readFileSync } from "node:fs";
import { AppError } from "../../kernel/index.ts";

/** The two flags as commander parses them. */
export interface SystemFlags {
  system?: string;
  appendSystem?: string;
}

function flagValue(value: string, flag: string): string {
  if (!value.startsWith("@")) return value;
  const path = value.slice(1);
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new AppError("usage", `${flag} @${path}: cannot read the file (${reason})`);
  }
}

/**
 * The system prompt to use given the built-in one, or undefined when neither flag is set (the caller
 * keeps its default). Reads `@file` values.
 */
export function systemPromptFrom(flags: SystemFlags, builtIn: string): string | undefined {
  if (flags.system === undefined && flags.appendSystem === undefined) return undefined;
  const base = flags.system !== undefined ? flagValue(flags.system, "--system").trim() : builtIn;
  if (flags.appendSystem === undefined) return base;
  return `${base}\n\n${flagValue(flags.appendSystem, "--append-system").trim()}`;
}
