import { lstat } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import { readConfigFileResult } from "../../kernel/files/config-file.ts";
import { configDir } from "../../kernel/files/paths.ts";

/**
 * Project instructions (docs/agent-specs.md "Project instructions"): AGENTS.md, or CLAUDE.md where a directory has
 * no AGENTS.md, from the repository root (the nearest directory holding `.git`; without one, the
 * directories below $HOME when the workspace is under it, else the workspace alone) down to the
 * workspace, after the user's own
 * `$XDG_CONFIG_HOME/agent/AGENTS.md`. They go into every agent's system prompt as one delimited block,
 * user file first, then farthest to nearest (nearest last, so it has the last word), which keeps the
 * request prefix the same on every turn (prompt caching).
 *
 * Every file is read through the guarded config reader: a FIFO, device, directory, huge file or a
 * symlink out of the searched tree is refused with a warning; the run goes on without it. The tree is
 * never bounded by `/`: in an unpacked tarball or a container's `/workspace` (no `.git`, outside HOME)
 * an AGENTS.md linked to `~/.ssh/id_ed25519` would otherwise put the key into the system prompt.
 */

/** Total size of the instructions block's file texts (bytes of UTF-8); docs/agent-specs.md "Project instructions". */
export const INSTRUCTIONS_CAP = 32 * 1024;

/** The names looked for in each directory, in order of preference: the first present one is used. */
export const INSTRUCTION_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

/** A file as read: its text (the head of it when `longer`: the file went on past the cap). */
interface Found {
  path: string;
  text: string;
  longer?: boolean;
}

/** One instructions file as it goes into the prompt. */
export interface InstructionFile {
  path: string;
  /** The text included (cut to what fits under the cap). */
  text: string;
  /** Set when the file was cut or left out: what the block's note says about it. */
  cut?: string;
}

/** The instructions of one session, loaded once and handed to every agent. */
export interface ProjectInstructions {
  /** Files in prompt order: the user's first, then farthest to nearest. Left-out files are not here. */
  files: InstructionFile[];
  /** The block added to each agent's system prompt ("" when there are no files). */
  block: string;
  /** Files refused by the guarded reader, and what the cap cut: shown as warnings. */
  warnings: string[];
}

type Env = Record<string, string | undefined>;

export interface InstructionsOptions {
  workspaceRoot: string;
  env?: Env;
  /** The home directory (defaults to os.homedir()): where the search stops without a repository. */
  home?: string;
  cap?: number;
}

/** Finds and reads the instruction files for a workspace; never throws. */
export async function loadInstructions(options: InstructionsOptions): Promise<ProjectInstructions> {
  const env = options.env ?? process.env;
  const home = path.resolve(options.home ?? env.HOME ?? homedir());
  const dirs = await searchedDirectories(path.resolve(options.workspaceRoot), home);
  const top = dirs[0] ?? options.workspaceRoot;
  const warnings: string[] = [];
  const found: Found[] = [];
  const cap = options.cap ?? INSTRUCTIONS_CAP;
  const read = async (file: string, within?: string): Promise<"read" | "missing" | "refused"> => {
    // Only the head that can fit is read: a file over the limit contributes its first part, cut at a
    // line end with a note, as Codex reads the first 32 KiB (project_doc_max_bytes,
    // developers.openai.com/codex/guides/agents-md), instead of being skipped whole.
    const result = await readConfigFileResult(file, {
      cap,
      head: true,
      ...(within !== undefined ? { within } : {}),
    });
    if ("text" in result) {
      found.push({ path: file, text: result.text, ...(result.cut ? { longer: true } : {}) });
      return "read";
    }
    if ("refused" in result) {
      warnings.push(`instructions file ${file} skipped: ${result.refused}`);
      return "refused";
    }
    return "missing";
  };
  await read(path.join(configDir(env), "AGENTS.md"));
  for (const dir of dirs) {
    for (const name of INSTRUCTION_NAMES) {
      if ((await read(path.join(dir, name), top)) !== "missing") break;
    }
  }
  const files = capFiles(found, cap);
  for (const f of files) if (f.cut) warnings.push(`instructions file ${f.path}: ${f.cut}`);
  const included = files.filter((f) => f.text !== "");
  return { files: included, block: instructionsBlock(files), warnings };
}

/** The directories searched, farthest first: from the repository root (or the stop) to the workspace. */
export async function searchedDirectories(workspace: string, home: string): Promise<string[]> {
  const chain: string[] = [];
  for (let dir = workspace; ; ) {
    chain.push(dir);
    if (await exists(path.join(dir, ".git"))) return chain.reverse();
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // No repository: stop below $HOME when the workspace is under it (the user's file is the XDG one); HOME
  // itself as the workspace is searched alone. Outside HOME, the parents are nobody's we know: the
  // workspace alone.
  const underHome = chain.indexOf(home);
  const kept = underHome >= 0 ? chain.slice(0, Math.max(underHome, 1)) : [workspace];
  return kept.reverse();
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fits the files under the cap. The nearest files matter most, so the budget goes nearest first (then
 * farther, then the user's file); a file that does not fit whole is cut at the end, and a file with no
 * room left is left out. Order is kept.
 */
function capFiles(found: Found[], cap: number): InstructionFile[] {
  let left = cap;
  const out: InstructionFile[] = found.map((f) => ({ path: f.path, text: f.text }));
  for (let i = out.length - 1; i >= 0; i--) {
    const file = out[i] as InstructionFile;
    const longer = found[i]?.longer === true;
    const bytes = Buffer.byteLength(file.text);
    const size = longer ? `more than ${cap}` : `${bytes}`;
    if (bytes <= left && !longer) {
      left -= bytes;
      continue;
    }
    if (left <= 0) {
      file.cut = `left out (${size} bytes): the ${cap}-byte instructions limit was reached`;
      file.text = "";
      continue;
    }
    file.text = headAtLineEnd(file.text, left, longer);
    const kept = Buffer.byteLength(file.text);
    file.cut = `cut to its first ${kept} of ${size} bytes (the ${cap}-byte instructions limit)`;
    left = 0;
  }
  return out;
}

/**
 * The first `max` bytes of `text`, back to the last line end when there is one (no half line); `longer`:
 * `text` is itself the head of a longer file, so its end is a cut too.
 */
function headAtLineEnd(text: string, max: number, longer: boolean): string {
  const head = Buffer.from(text)
    .subarray(0, max)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  if (Buffer.byteLength(text) <= max && !longer) return head;
  const end = head.lastIndexOf("\n");
  return end > 0 ? head.slice(0, end + 1) : head;
}

/** The delimited block for the system prompt; left-out and cut files are named in a note. */
function instructionsBlock(files: InstructionFile[]): string {
  if (files.length === 0) return "";
  const parts = [
    "<project_instructions>",
    "Instructions from AGENTS.md/CLAUDE.md files: the user's own first, then from the repository root " +
      "down to the workspace. Follow them; where they disagree, the later (nearer) file wins.",
  ];
  for (const f of files) {
    if (f.text === "") continue;
    parts.push(`<instructions path="${f.path}">\n${f.text.trimEnd()}\n</instructions>`);
  }
  const notes = files.filter((f) => f.cut).map((f) => `- ${f.path}: ${f.cut}`);
  if (notes.length > 0) parts.push(`Note: the instructions were size-capped:\n${notes.join("\n")}`);
  parts.push("</project_instructions>");
  return parts.join("\n\n");
}

/** An agent's system prompt with the session's instructions, unless its spec opts out. */
export function systemPromptWith(
  systemPrompt: string,
  instructions: ProjectInstructions | undefined,
  optedOut: boolean,
): string {
  if (optedOut || !instructions || instructions.block === "") return systemPrompt;
  return `${systemPrompt}\n\n${instructions.block}`;
}
