import { AppError } from "../kernel/index.ts";
import { canonicalExecPattern } from "./exec-quotes.ts";
import { PATH_TOOLS } from "./match.ts";
import { checkRuleMcpServers, checkRuleTools } from "./rule-tools.ts";
import type { Effect, Rule, RuleSource } from "./types.ts";

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const EXPECTED = "expected TOOL or TOOL:PATTERN, e.g. exec:git status, exec:npm test *, write_file:src/**";

function ruleError(text: string, effect: Effect, source: RuleSource, detail: string): AppError {
  const kind = source === "flag" ? "usage" : "config";
  return new AppError(kind, `invalid ${effect} rule "${text}": ${detail} (${EXPECTED})`, { field: effect });
}

/**
 * Parses `TOOL` or `TOOL:PATTERN`. The tool must look like an identifier (unknown names are allowed,
 * so rules can name agents); file-tool patterns are workspace-relative path globs, fetch patterns URLs.
 * Throws AppError (kind "usage" for flags, "config" otherwise) saying what was expected.
 */
export function parseRule(text: string, effect: Effect, source: RuleSource): Rule {
  const trimmed = text.trim();
  if (trimmed === "") throw ruleError(text, effect, source, "the rule is empty");
  const colon = trimmed.indexOf(":");
  const tool = (colon < 0 ? trimmed : trimmed.slice(0, colon)).trim();
  if (!TOOL_NAME.test(tool)) {
    throw ruleError(text, effect, source, `"${tool}" is not a tool name (letters, digits, _ . -)`);
  }
  if (colon < 0) return { effect, tool, source, text: tool };
  const pattern = trimmed.slice(colon + 1).trim();
  if (pattern === "") {
    throw ruleError(text, effect, source, `nothing after ":"; write just "${tool}" to match every call`);
  }
  if (PATH_TOOLS.has(tool)) {
    if (pattern.startsWith("/")) {
      throw ruleError(text, effect, source, "file patterns are workspace-relative (src/**), not absolute");
    }
    if (pattern.split("/").includes("..")) {
      throw ruleError(text, effect, source, "file patterns cannot leave the workspace with ..");
    }
    if (pattern.startsWith("!")) {
      throw ruleError(text, effect, source, "negated patterns are not supported; write a deny rule instead");
    }
  }
  // `exec:node -e "import('./a.js')"` is matched as the splitter renders the command (exec-quotes.ts).
  const matched = tool === "exec" ? canonicalExecPattern(pattern) : pattern;
  if (tool === "exec" && source !== "session" && /[;\n&|<>]/.test(matched.replace(/'[^']*'/g, ""))) {
    throw ruleError(
      text,
      effect,
      source,
      "an exec pattern matches one simple command (no ; && || | or redirections); write one rule per command",
    );
  }
  if (tool === "fetch" && !/^(https?:\/\/|\*)/.test(pattern)) {
    throw ruleError(text, effect, source, "fetch patterns are URLs such as https://docs.example.com/*");
  }
  return { effect, tool, pattern: matched, source, text: `${tool}:${pattern}` };
}

/**
 * Built-in allow rules for a few exact, read-only commands. Everything else falls back to the
 * defaults in evaluate(): read-only tools allow, writes/exec/fetch ask. A user deny or ask rule
 * overrides these. git is deliberately absent: `git status` and `git diff` run programs a repository
 * configures (core.fsmonitor, core.pager, diff.external, textconv and filter drivers, hooks), so a
 * cloned repository could run code without asking. Codex made the same choice (its test
 * `git_commands_require_approval`, codex-rs/shell-command/src/command_safety/is_safe_command.rs).
 */
export function defaultRules(): Rule[] {
  return ["exec:pwd", "exec:ls"].map((text) => parseRule(text, "allow", "default"));
}

/** Rule lists as a config file holds them. */
export interface RuleLists {
  allow?: string[];
  ask?: string[];
  deny?: string[];
  /** The file they came from, for error messages. */
  file?: string;
}

/** Every source of rules for one run. */
export interface RuleSetInput {
  /** The user's config file: may allow, ask and deny. */
  user?: RuleLists;
  /** `--allow RULE` / `--deny RULE`. */
  flags?: { allow?: string[]; deny?: string[] };
  /** A project file in the workspace: may add only ask and deny rules. */
  project?: RuleLists;
  /** Include defaultRules() (default true). */
  defaults?: boolean;
  /** Every tool a rule may name (primitives and agents); a rule naming another is an error. Unchecked when absent. */
  knownTools?: readonly string[];
  /** The session's MCP servers: a flag rule naming another (`--deny mcp:githb`) is an error. Unchecked
   * when absent. */
  mcpServers?: readonly string[];
}

function parseLists(lists: RuleLists | undefined, source: RuleSource): Rule[] {
  if (lists === undefined) return [];
  const rules: Rule[] = [];
  for (const effect of ["allow", "ask", "deny"] as const) {
    for (const text of lists[effect] ?? []) {
      try {
        rules.push(parseRule(text, effect, source));
      } catch (error) {
        if (error instanceof AppError && lists.file !== undefined) {
          throw new AppError(error.kind, `${lists.file}: ${error.message}`, {
            file: lists.file,
            field: effect,
          });
        }
        throw error;
      }
    }
  }
  return rules;
}

/**
 * Builds the rule set of a run from defaults, user config, flags and the project file.
 * Throws AppError("config") when the project file tries to allow anything.
 */
export function buildRuleSet(input: RuleSetInput): Rule[] {
  const projectAllow = input.project?.allow ?? [];
  if (projectAllow.length > 0) {
    const where = input.project?.file ?? "the project file";
    throw new AppError(
      "config",
      `${where}: project files may add only ask and deny rules, but it allows ${projectAllow.join(", ")}; ` +
        "move allow rules to your user config or pass --allow",
      { ...(input.project?.file ? { file: input.project.file } : {}), field: "allow" },
    );
  }
  const flags = [
    ...(input.flags?.allow ?? []).map((text) => parseRule(text, "allow", "flag")),
    ...(input.flags?.deny ?? []).map((text) => parseRule(text, "deny", "flag")),
  ];
  const user = parseLists(input.user, "user");
  const project = parseLists(input.project, "project");
  if (input.knownTools) {
    checkRuleTools(flags, input.knownTools, { source: "flag" });
    checkRuleTools(user, input.knownTools, { source: "config", file: input.user?.file });
    checkRuleTools(project, input.knownTools, { source: "config", file: input.project?.file });
  }
  if (input.mcpServers) checkRuleMcpServers(flags, input.mcpServers);
  return [...(input.defaults === false ? [] : defaultRules()), ...user, ...flags, ...project];
}
