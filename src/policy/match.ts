import { readableExecPattern } from "./exec-quotes.ts";

/** Tools whose main argument is a workspace-relative path; their patterns are path globs (`**`). */
export const PATH_TOOLS: ReadonlySet<string> = new Set([
  "read_file",
  "write_file",
  "edit_file",
  "apply_patch",
  "grep",
  "glob",
]);

/** True when `path` is absolute or climbs out with `..`: such a target is never inside the workspace. */
export function leavesWorkspace(path: string): boolean {
  return path.startsWith("/") || /^[A-Za-z]:[\\/]/.test(path) || path.split(/[\\/]/).includes("..");
}

/** The form a target is matched in: paths without a leading `./`, URLs as `new URL().href`. */
export function normalizeTarget(tool: string, target: string): string {
  if (PATH_TOOLS.has(tool)) return target.replace(/^(\.\/)+/, "");
  if (tool === "fetch") {
    try {
      return new URL(target).href;
    } catch {
      return target;
    }
  }
  return target.trim();
}

/** A glob where `*` matches any characters (spaces and slashes too), `?` one, `\x` a literal x. */
function globSource(pattern: string): string {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*") source += "[\\s\\S]*";
    else if (c === "?") source += "[\\s\\S]";
    else {
      const literal = c === "\\" && i + 1 < pattern.length ? pattern[++i]! : c;
      source += literal.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
    }
  }
  return source;
}

/**
 * Whether `pattern` matches a normalized target of `tool`: a path glob (Bun.Glob, `*` within one
 * segment, `**` across) for file tools, a text glob for exec commands, URLs and anything else.
 * An exec pattern ending in ` *` also matches the command without arguments. An MCP pattern without a
 * `/` names a whole server (`mcp:github`, as a spec's capability does): every `github/TOOL`.
 */
export function patternMatches(tool: string, pattern: string, target: string): boolean {
  if (PATH_TOOLS.has(tool)) return new Bun.Glob(pattern).match(target);
  if (tool === "mcp" && !pattern.includes("/")) return patternMatches(tool, `${pattern}/*`, target);
  // `exec:npm test *` also matches plain `npm test`.
  if (tool === "exec" && pattern.endsWith(" *")) {
    return new RegExp(`^${globSource(pattern.slice(0, -2))}(?: [\\s\\S]*)?$`).test(target);
  }
  return new RegExp(`^${globSource(pattern)}$`).test(target);
}

/**
 * Whether an exec pattern could match a command that starts anywhere inside `text` at a word boundary:
 * `rm *` occurs in `-c rm -rf x`, `/bin/rm x` and `--cmd=rm`, not in `rm.sh`, `--rm` or `farm`. Deny
 * and ask rules use it on the arguments of programs that may run them as a command.
 */
export function patternOccurs(pattern: string, text: string): boolean {
  const body = pattern.endsWith(" *") ? pattern.slice(0, -2) : pattern;
  return new RegExp(`(?:^|[^A-Za-z0-9_.-])${globSource(body)}(?![A-Za-z0-9_.-])`).test(text);
}

/** Escapes `text` so that, as a pattern, it matches exactly itself (for "yes for this session" rules). */
export function escapePattern(text: string): string {
  return text.replace(/[\\*?[\]{}(),!@+]/g, "\\$&");
}

/**
 * A pattern of `tool` matching exactly `text`, escaping only what that tool's patterns treat as special:
 * path globs (Bun.Glob) all of escapePattern's characters; command, URL and MCP patterns only `\`, `*`
 * and `?` (globSource), so `exec:node -e 'console.log(1)'` stays readable. A command's words holding `'`
 * are double-quoted where that reads the same (`node -e "import('./a.js')"`, exec-quotes.ts).
 */
export function literalPattern(tool: string, text: string): string {
  if (PATH_TOOLS.has(tool)) return escapePattern(text);
  // A word respelled in double quotes holds no `\`, `*` or `?` (exec-quotes.ts): escaping after is safe.
  return (tool === "exec" ? readableExecPattern(text) : text).replace(/[\\*?]/g, "\\$&");
}
