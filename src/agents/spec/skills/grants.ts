import type { Skill } from "./types.ts";

/**
 * What an activated skill's `allowed-tools` may pre-approve (docs/skills.md "Trust"). A skill is
 * instructions, not permission: the user's own skills may grant any tool; a project's skills only when the
 * user lists the project in `trusted_projects`, and never `exec` (a repository cannot approve its own
 * commands); nothing lifts a deny rule (the gate adds these as allow rules, below deny and ask).
 *
 * Entries are Claude Code's tool names (Read, Write, Edit, MultiEdit, Grep, Glob, Bash, WebFetch;
 * `Bash(git diff:*)` a command prefix; `mcp__server__tool`), as skills write them (the field tables of
 * skill references, e.g. skills.sh outfitter-dev/agents/claude-skills "allowed-tools: Read Grep Glob
 * Bash(git diff *)"), space- or comma-separated, or agent's own rules (`read_file`, `exec:git status`,
 * `mcp:server/tool`).
 */

const CLAUDE_TOOLS: Record<string, string> = {
  Read: "read_file",
  Write: "write_file",
  Edit: "edit_file",
  MultiEdit: "edit_file",
  Grep: "grep",
  Glob: "glob",
  LS: "glob",
  Bash: "exec",
  WebFetch: "fetch",
};

/** One `allowed-tools` entry as an agent rule, or undefined when it names nothing agent has. */
export function ruleForEntry(entry: string): string | undefined {
  const mcp = /^mcp__([^_]+(?:_[^_]+)*)__(.+)$/.exec(entry);
  if (mcp) return `mcp:${mcp[1]}/${mcp[2]}`;
  const call = /^([A-Za-z]+)(?:\((.*)\))?$/.exec(entry);
  const mapped = call ? CLAUDE_TOOLS[call[1] ?? ""] : undefined;
  if (call && mapped) {
    const inner = call[2]?.trim();
    if (inner === undefined || inner === "" || inner === "*") return mapped;
    if (mapped === "exec") return `exec:${inner.replace(/:\*$/, " *")}`;
    if (mapped === "fetch") return undefined; // WebFetch(domain:x) has no URL pattern of ours
    return `${mapped}:${inner.replace(/^\.\//, "")}`;
  }
  // Already one of our rules: `read_file`, `exec:git status`, `mcp:server/tool`.
  if (/^[a-z_][a-z0-9_.-]*(?::.+)?$/.test(entry)) return entry;
  return undefined;
}

/** The allow rules a skill's activation adds, and what was left out and why. */
export function skillGrants(skill: Skill, projectTrusted: boolean): { rules: string[]; ignored?: string } {
  if (skill.allowedTools.length === 0) return { rules: [] };
  if (skill.scope === "project" && !projectTrusted)
    return {
      rules: [],
      ignored: `allowed-tools of project skill ${skill.name} ignored: the project is not in trusted_projects`,
    };
  const rules: string[] = [];
  const left: string[] = [];
  for (const entry of skill.allowedTools) {
    const rule = ruleForEntry(entry);
    const isExec = rule === "exec" || rule?.startsWith("exec:") === true;
    if (rule === undefined) left.push(`${entry} (no such tool)`);
    else if (isExec && skill.scope === "project") left.push(`${entry} (a project skill never approves exec)`);
    else if (!rules.includes(rule)) rules.push(rule);
  }
  return left.length > 0 ? { rules, ignored: `allowed-tools not granted: ${left.join(", ")}` } : { rules };
}
