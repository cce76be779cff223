import { z } from "zod";
import { REASONING_EFFORTS, type ReasoningEffort } from "../../kernel/conversation/stream.ts";
import { ALL_MCP_SERVERS } from "../../tools/mcp/names.ts";
import { isPrimitiveName, type PrimitiveName } from "../../tools/names.ts";

/**
 * An agent spec: one YAML file per agent (DESIGN "Agent specs").
 * `capabilities` mixes primitive names, agent names and MCP tools (`mcp:SERVER`, `mcp:SERVER/TOOL`); the
 * loader checks that each names something real.
 */

/** Agent names double as tool names, so they must fit every provider's tool-name rules. */
const NAME_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;

/** Defaults applied when a spec leaves a constraint out. */
export const DEFAULT_CONSTRAINTS: AgentConstraints = {
  max_turns: 30,
  max_depth: 3,
  timeout_ms: 600_000,
  can_spawn: true,
  can_learn: false,
};

const constraintsSchema = z
  .object({
    max_turns: z.number().int().positive().default(DEFAULT_CONSTRAINTS.max_turns),
    max_depth: z.number().int().min(0).default(DEFAULT_CONSTRAINTS.max_depth),
    timeout_ms: z.number().int().positive().default(DEFAULT_CONSTRAINTS.timeout_ms),
    can_spawn: z.boolean().default(DEFAULT_CONSTRAINTS.can_spawn),
    can_learn: z.boolean().default(DEFAULT_CONSTRAINTS.can_learn),
    max_tokens: z
      .number({ error: "a positive whole number of tokens" })
      .int({ error: "a positive whole number of tokens" })
      .positive({ error: "a positive whole number of tokens" })
      .optional(),
    max_cost_usd: z
      .number({ error: "a positive number of US dollars, e.g. 0.50" })
      .positive({ error: "a positive number of US dollars, e.g. 0.50" })
      .optional(),
  })
  .strict();

/** Every field `constraints` may hold (error messages list them). */
export const CONSTRAINT_FIELDS = Object.keys(constraintsSchema.shape);

/** The zod schema for one spec file. Unknown keys are errors (a typo must not be silently ignored). */
export const agentSpecSchema = z
  .object({
    name: z
      .string()
      .regex(
        NAME_PATTERN,
        "a lowercase name of letters, digits, '-' or '_' (at most 64), starting with a letter",
      ),
    description: z.string().min(1, "a non-empty description (the parent sees it in its tool list)"),
    system_prompt: z.string().min(1, "a non-empty system prompt"),
    model: z.string().min(1).default("good"),
    reasoning_effort: z
      .enum(REASONING_EFFORTS as [ReasoningEffort, ...ReasoningEffort[]], {
        error: `one of ${REASONING_EFFORTS.join(", ")}`,
      })
      .optional(),
    capabilities: z.array(z.string().min(1)).default([]),
    constraints: constraintsSchema.default({ ...DEFAULT_CONSTRAINTS }),
    tags: z.array(z.string()).default([]),
    version: z.union([z.string(), z.number()]).transform(String).default("1"),
    verify: z.array(z.string().min(1)).optional(),
    instructions: z.boolean({ error: "expected instructions: true or false" }).optional(),
    skills: z
      .union([z.boolean(), z.array(z.string().min(1))], {
        error: "expected skills: true, false or a list of skill names",
      })
      .optional(),
    isolation: z.enum(["worktree"], { error: "worktree, or no isolation field" }).optional(),
  })
  .strict();

export interface AgentConstraints {
  max_turns: number;
  max_depth: number;
  timeout_ms: number;
  can_spawn: boolean;
  can_learn: boolean;
  /** Token budget of this agent's subtree (every model call's input, output and cache tokens). */
  max_tokens?: number;
  /** Cost budget in USD of this agent's subtree (catalog prices). */
  max_cost_usd?: number;
}

/** A validated agent spec. */
export interface AgentSpec {
  name: string;
  description: string;
  system_prompt: string;
  /** Tier (`fast`, `good`, `best`), `provider:model`, or a bare model id. */
  model: string;
  /** Reasoning effort for this agent's model calls; beats the tier's `reasoning_effort` from config. */
  reasoning_effort?: ReasoningEffort;
  capabilities: string[];
  constraints: AgentConstraints;
  tags: string[];
  version: string;
  /** Shell commands that must all succeed (exit 0) before the agent may finish. */
  verify?: string[];
  /** `false`: the session's project instructions (AGENTS.md, CLAUDE.md) are not added to this agent's
   * system prompt (src/agents/spec/instructions.ts). Default true. */
  instructions?: boolean;
  /** Agent Skills this agent sees in its catalog and may activate (src/agents/spec/skills/): `true` all,
   * a list the named ones, `false` or absent none. The built-in root and code-editor say `true`. */
  skills?: boolean | string[];
  /** `worktree`: as a sub-agent, run in a git worktree of its own; its change comes back to the parent
   * as an apply_patch through the approval gate (src/agents/loop/isolated-child.ts, docs/worktrees.md). */
  isolation?: "worktree";
}

/** Where a loaded spec came from; nearer scopes override farther ones by name. */
export type SpecScope = "project" | "user" | "bootstrap" | "inline";

export interface LoadedSpec extends AgentSpec {
  source: { file: string; scope: SpecScope };
}

/** Where a spec came from, for messages: `project spec FILE`, or "a spec built in code". */
export function specOrigin(spec: AgentSpec): string {
  const source = (spec as Partial<LoadedSpec>).source;
  return source ? `${source.scope} spec ${source.file}` : "a spec built in code";
}

/** True when `name` is one of the primitives the model can be offered (checked in src/tools/names.ts). */
export const isPrimitiveCapability: (name: string) => name is PrimitiveName = isPrimitiveName;

/** The primitive capabilities of a spec, in spec order. */
export function primitiveCapabilities(spec: AgentSpec): PrimitiveName[] {
  return spec.capabilities.filter(isPrimitiveCapability);
}

/** True for an MCP capability: `mcp:SERVER` or `mcp:SERVER/TOOL`. */
export function isMcpCapability(name: string): boolean {
  return name.startsWith("mcp:");
}

/** The MCP capabilities of a spec, in spec order. */
export function mcpCapabilities(spec: AgentSpec): string[] {
  return spec.capabilities.filter(isMcpCapability);
}

/** What is wrong with an `mcp:SERVER[/TOOL]` capability, if anything (tools are checked at run time). */
export function mcpCapabilityProblem(cap: string, servers: readonly string[]): string | undefined {
  if (cap === ALL_MCP_SERVERS) return undefined; // every declared server; none when config declares none
  const rest = cap.slice("mcp:".length);
  const slash = rest.indexOf("/");
  const server = slash < 0 ? rest : rest.slice(0, slash);
  if (server === "" || (slash >= 0 && rest.slice(slash + 1) === "")) {
    return `"${cap}" is not an MCP capability; expected mcp:SERVER or mcp:SERVER/TOOL`;
  }
  if (servers.includes(server)) return undefined;
  const known = servers.length > 0 ? servers.join(", ") : "none";
  return `"${cap}" names MCP server "${server}", which config does not declare; expected one of the servers in mcp_servers (known: ${known})`;
}

/** The agent capabilities of a spec (neither a primitive nor an MCP capability), in spec order. */
export function agentCapabilities(spec: AgentSpec): string[] {
  return spec.capabilities.filter((c) => !isPrimitiveCapability(c) && !isMcpCapability(c));
}

/** Builds a spec in code (tests, helper runs), applying the same defaults as a YAML file. */
export function defineSpec(input: z.input<typeof agentSpecSchema>): AgentSpec {
  return agentSpecSchema.parse(input) as AgentSpec;
}
