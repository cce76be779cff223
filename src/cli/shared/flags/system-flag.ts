/**
 * `-s/--system` (replaces the built-in system prompt) and `--append-system` (adds to it), shared by
 * `agent run` and `agent helper`; a value starting with `@` names a file to read, as `llm -s` and
 * curl's `-d @file` do, through the guarded reader (flag-file.ts). A file that cannot be read, or is
 * refused, is a usage error (exit 2).
 */
import { readFlagFile } from "./flag-file.ts";

/** The two flags as commander parses them. */
export interface SystemFlags {
  system?: string;
  appendSystem?: string;
}

/** The flags' texts once `@FILE` values are read (named apart from the flags so a raw value cannot slip in). */
export interface SystemTexts {
  replace?: string;
  append?: string;
}

async function flagValue(value: string, flag: string, workspace: string): Promise<string> {
  if (!value.startsWith("@")) return value;
  return readFlagFile(value.slice(1), `${flag} ${value}`, workspace);
}

/** Reads the `@FILE` values of the flags through the guarded reader; see flag-file.ts. */
export async function readSystemFlags(flags: SystemFlags, workspace: string): Promise<SystemTexts> {
  return {
    ...(flags.system !== undefined ? { replace: await flagValue(flags.system, "--system", workspace) } : {}),
    ...(flags.appendSystem !== undefined
      ? { append: await flagValue(flags.appendSystem, "--append-system", workspace) }
      : {}),
  };
}

/**
 * The system prompt to use given the built-in one, or undefined when neither flag is set (the caller
 * keeps its default).
 */
export function systemPromptFrom(texts: SystemTexts, builtIn: string): string | undefined {
  if (texts.replace === undefined && texts.append === undefined) return undefined;
  const base = texts.replace !== undefined ? texts.replace.trim() : builtIn;
  if (texts.append === undefined) return base;
  return `${base}\n\n${texts.append.trim()}`;
}
