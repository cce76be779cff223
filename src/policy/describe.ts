import { parsePatch } from "../tools/files/apply-patch-parser.ts";

/**
 * What a tool call does, in words, as an approval prompt and an `--on-ask fail` error name it:
 * `run node -e "import('./greet.js')…"`, `edit greet.js`, `write src/a.ts`,
 * `apply patch: update greet.js, add b.js`, `fetch https://…`, `call mcp github/create_issue`,
 * `delegate to code-reader: find the parser`. `targets` are the call's policy targets (workspace-relative
 * paths, the command, the URL, `SERVER/TOOL`), used where the arguments do not say more.
 */
export function describeAction(
  tool: string,
  args: Record<string, unknown>,
  targets: readonly string[],
  width = 100,
): string {
  const listed = targets.join(", ");
  switch (tool) {
    case "exec":
      return `run ${clip(text(args.command) ?? listed, width)}`;
    case "edit_file":
      return `edit ${clip(listed || (text(args.path) ?? ""), width)}`;
    case "write_file":
      return `write ${clip(listed || (text(args.path) ?? ""), width)}`;
    case "apply_patch":
      return `apply patch: ${clip(patchActions(text(args.patch) ?? "") ?? `change ${listed}`, width)}`;
    case "fetch":
      return `fetch ${clip(listed || (text(args.url) ?? ""), width)}`;
    case "mcp":
      return `call mcp ${clip(listed, width)}`;
    case "read_file":
      return `read ${clip(listed, width)}`;
    case "grep":
    case "glob":
      return `search ${clip(text(args.pattern) ?? listed, width)}`;
  }
  const goal = text(args.goal);
  if (goal !== undefined) return `delegate to ${tool}: ${clip(goal, width)}`;
  return listed === "" ? `use ${tool}` : `use ${tool} on ${clip(listed, width)}`;
}

/** `update greet.js, add b.js, delete c.js, move a.js to d.js`, or undefined for a patch that does not parse. */
function patchActions(patch: string): string | undefined {
  try {
    const hunks = parsePatch(patch);
    if (hunks.length === 0) return undefined;
    return hunks
      .map((h) =>
        h.kind === "update"
          ? h.moveTo
            ? `move ${h.path} to ${h.moveTo}`
            : `update ${h.path}`
          : `${h.kind} ${h.path}`,
      )
      .join(", ");
  } catch {
    return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** One line (line breaks shown as ⏎), cut to `width` characters with an ellipsis. */
function clip(value: string, width: number): string {
  const line = value.trim().replace(/\r?\n/g, " ⏎ ");
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** Verbs for the file tools a rule names (`edit_file` covers apply_patch's updates too, file-rules.ts). */
const RULE_VERBS: Record<string, string> = {
  edit_file: "edit",
  write_file: "write",
  read_file: "read",
  fetch: "fetch",
  mcp: "call mcp",
};

/**
 * What an allow rule lets through, in words, as the approval prompt says what "yes for this session"
 * adds: `exec:npm test` → `run this exact command`, `exec:npm test *` → `run commands matching npm test *`,
 * `edit_file:greet.js` → `edit greet.js`, a bare `grep` → `every grep call`. A pattern's escapes
 * (`\*`, match.ts literalPattern) are read as the characters they stand for.
 */
export function ruleInWords(rule: string): string {
  const colon = rule.indexOf(":");
  if (colon < 0) return `every ${rule} call`;
  const tool = rule.slice(0, colon);
  const pattern = rule.slice(colon + 1);
  const glob = /(^|[^\\])[*?[{]/.test(pattern);
  const literal = pattern.replace(/\\(.)/g, "$1");
  if (tool === "exec") return glob ? `run commands matching ${pattern}` : "run this exact command";
  const verb = RULE_VERBS[tool];
  if (verb === undefined) return glob ? `${tool} on anything matching ${pattern}` : `${tool} on ${literal}`;
  return glob ? `${verb} anything matching ${pattern}` : `${verb} ${literal}`;
}
