/**
 * `agent agents list|show|validate`: loads the specs along the search path (project, user, bootstrap)
 * and reports them. Spec errors always go to stderr as `FILE:LINE: FIELD: message` and make the exit
 * code 3, while the valid specs are still listed or shown.
 */
import { relative } from "node:path";
import { stringify } from "yaml";
import { loadInstructions } from "../../agents/spec/instructions.ts";
import type { LoadedSpec } from "../../agents/spec/spec.ts";
import { modelNameCheck } from "../../agents/spec/spec-checks.ts";
import {
  formatSpecError,
  loadSpecs,
  type ShadowedSpec,
  type SpecError,
  type SpecLoadResult,
} from "../../agents/spec/spec-loader.ts";
import { AppError, ExitCode, terminalLine } from "../../kernel/index.ts";
import { didYouMean } from "../../kernel/text/did-you-mean.ts";
import { loadConfig } from "../../sdk/config/config.ts";
import { sessionMcpConfigs } from "../../sdk/mcp-session.ts";
import { loadProjectRules } from "../../sdk/project/project-rules.ts";
import { type CommandIo, processIo } from "../shared/io/command-io.ts";
import { safeLine } from "../shared/io/terminal-out.ts";

/** One agent as `agents list` reports it. */
export interface AgentRow {
  name: string;
  description: string;
  model: string;
  capabilities: string[];
  scope: string;
  file: string;
  /** Farther specs of the same name this one hides. */
  overrides: { scope: string; file: string }[];
}

/** The specs with the same checks as `agent run` (model names against the user's config included, and
 * `mcp:` capabilities against the MCP servers a run here could use). */
async function load(io: CommandIo): Promise<SpecLoadResult> {
  const config = await loadConfig(io.env);
  const { servers } = sessionMcpConfigs(config, await loadProjectRules(io.cwd), io.cwd);
  return loadSpecs({
    workspaceRoot: io.cwd,
    env: io.env,
    checkModel: modelNameCheck(io.env, config),
    mcpServers: Object.keys(servers),
  });
}

/** Writes every spec error on stderr, one line each; returns the exit code they imply. */
function reportErrors(errors: SpecError[], io: CommandIo): number {
  for (const error of errors) io.stderr.write(safeLine`${formatSpecError(error)}\n`);
  return errors.length > 0 ? ExitCode.config : ExitCode.done;
}

/** A path relative to the cwd when inside it, else as it is. */
function shown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== "" && !rel.startsWith("..") && !rel.startsWith("/") ? rel : file;
}

/** The rows of `agents list`, sorted by name. */
export function agentRows(result: SpecLoadResult): AgentRow[] {
  const shadowedBy = new Map<string, ShadowedSpec[]>();
  for (const s of result.shadowed) shadowedBy.set(s.name, [...(shadowedBy.get(s.name) ?? []), s]);
  return [...result.specs.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((spec) => ({
      name: spec.name,
      description: spec.description,
      model: spec.model,
      capabilities: spec.capabilities,
      scope: spec.source.scope,
      file: spec.source.file,
      overrides: (shadowedBy.get(spec.name) ?? []).map((s) => ({ scope: s.scope, file: s.file })),
    }));
}

/** The rows as an aligned table. */
export function formatAgentRows(rows: AgentRow[], cwd: string): string {
  const table = [
    ["NAME", "MODEL", "SCOPE", "CAPABILITIES", "SOURCE"],
    ...rows.map((r) => {
      const overrides = r.overrides.map((o) => ` (overrides ${o.scope} ${shown(o.file, cwd)})`).join("");
      // Each cell is one terminal line: a name or model holding a line break cannot add a row.
      return [
        r.name,
        r.model,
        r.scope,
        r.capabilities.join(", ") || "-",
        `${shown(r.file, cwd)}${overrides}`,
      ].map(terminalLine);
    }),
  ];
  const widths = table[0]?.map((_, col) => Math.max(...table.map((row) => row[col]?.length ?? 0))) ?? [];
  const lines = table.map((row) =>
    row
      .map((cell, col) => (col === row.length - 1 ? cell : cell.padEnd(widths[col] ?? 0)))
      .join("  ")
      .trimEnd(),
  );
  return `${lines.join("\n")}\n`;
}

/** `agent agents list`: the valid agents on stdout, errors on stderr; 3 when any spec is invalid. */
export async function listAgents(flags: { json?: boolean }, io: CommandIo = processIo()): Promise<number> {
  const result = await load(io);
  const rows = agentRows(result);
  if (flags.json) {
    io.stdout.json({ agents: rows, errors: result.errors }, 2);
  } else if (rows.length > 0) {
    io.stdout.write(formatAgentRows(rows, io.cwd));
  }
  return reportErrors(result.errors, io);
}

/** The spec as YAML in the order a person reads it, system prompt last. */
export function formatSpec(
  spec: LoadedSpec,
  overrides: ShadowedSpec[],
  cwd: string,
  instructions: string[] = [],
): string {
  const header = [`# ${spec.name}: ${spec.source.scope} spec ${shown(spec.source.file, cwd)}`];
  for (const o of overrides) header.push(`# overrides ${o.scope} ${shown(o.file, cwd)}`);
  const body = {
    name: spec.name,
    description: spec.description,
    model: spec.model,
    // `agents:*` last when the spec has it: every other known agent, also those added later.
    capabilities: spec.capabilities,
    skills: spec.skills ?? false,
    constraints: spec.constraints,
    tags: spec.tags,
    version: spec.version,
    ...(spec.verify ? { verify: spec.verify } : {}),
    // The project instruction files added to its system prompt (src/agents/spec/instructions.ts), or false.
    instructions: spec.instructions === false ? false : instructions.map((f) => shown(f, cwd)),
    system_prompt: spec.system_prompt,
  };
  return `${header.join("\n")}\n${stringify(body, { lineWidth: 0 })}`;
}

/** `agent agents show NAME`. Unknown NAME: exit 2 naming the agents (3 when some spec is invalid). */
export async function showAgent(
  name: string,
  flags: { json?: boolean },
  io: CommandIo = processIo(),
): Promise<number> {
  const result = await load(io);
  const spec = result.specs.get(name);
  const code = reportErrors(result.errors, io);
  if (!spec) {
    const names = [...result.specs.keys()].sort();
    const known = names.join(", ") || "(none)";
    const message = `unknown agent "${name}"${didYouMean(name, names)}; available agents: ${known}`;
    if (code !== ExitCode.done) {
      io.stderr.write(safeLine`agent: ${message} (some specs are invalid, see above)\n`);
      return code;
    }
    throw new AppError("usage", message);
  }
  const overrides = result.shadowed.filter((s) => s.name === name);
  // As the spec says it: `agents:*` (kept in the graph after the loader expanded it) and its skills.
  const shownSpec: LoadedSpec = { ...spec, capabilities: result.graph.get(name) ?? spec.capabilities };
  const found = await loadInstructions({ workspaceRoot: io.cwd, env: io.env });
  for (const warning of found.warnings) io.stderr.write(safeLine`agent: ${warning}\n`);
  const instructions = found.files.map((f) => f.path);
  if (flags.json) {
    const { source, ...fields } = shownSpec;
    const listed = spec.instructions === false ? false : instructions;
    io.stdout.json({ ...fields, instructions: listed, source, overrides }, 2);
  } else {
    io.stdout.write(formatSpec(shownSpec, overrides, io.cwd, instructions));
  }
  return code;
}

/** `agent agents validate`: every error on stderr and exit 3, or "N specs valid" and exit 0. */
export async function validateAgents(io: CommandIo = processIo()): Promise<number> {
  const result = await load(io);
  const code = reportErrors(result.errors, io);
  const valid = result.specs.size;
  const noun = valid === 1 ? "spec" : "specs";
  if (code !== ExitCode.done) {
    const problems = result.errors.length === 1 ? "1 error" : `${result.errors.length} errors`;
    io.stderr.write(`agent: ${problems} in agent specs; ${valid} ${noun} valid\n`);
    return code;
  }
  io.stdout.write(`${valid} ${noun} valid\n`);
  return code;
}
