import type { JsonSchema, ToolOutput, ToolProgress } from "../kernel/index.ts";
import type { Redactor } from "../kernel/text/redact.ts";
import type { PrimitiveName } from "./names.ts";
import type { Workspace } from "./workspace.ts";

export { isPrimitiveName, PRIMITIVE_NAMES, type PrimitiveName } from "./names.ts";

/** Everything a tool may touch while it runs. */
export interface ToolContext {
  workspace: Workspace;
  signal: AbortSignal;
  /** Redacts known secrets from every result; defaults to `Redactor.fromEnv()`. */
  redactor?: Redactor;
  /** Origins (`http://localhost:8080`: scheme, host and port) an explicit allow rule names: fetch may
   * reach them even at private, loopback or link-local addresses. A one-off approval or `--on-ask allow`
   * must never add to this list. */
  allowPrivateOrigins?: string[];
  /** Puts each redirect fetch would follow to the approval policy as a fetch of its own: resolves to
   * undefined when it may be followed, else to the refusal to report. Without it fetch follows only
   * redirects within the origin it was asked for. */
  approveRedirect?: (url: string) => Promise<string | undefined>;
  /** The environment exec derives its children's minimal environment from; defaults to `process.env`. */
  env?: Record<string, string | undefined>;
  /** Receives a running command's output as it arrives (exec), for a live view; bounded by the caller. */
  onOutput?: (text: string) => void;
  /** Receives a running tool's progress reports (an MCP server's notifications/progress). */
  onProgress?: (progress: ToolProgress) => void;
  /** Wall-clock bound of one grep search in milliseconds; defaults to GREP_TIME_LIMIT_MS (grep-runner.ts). */
  searchTimeoutMs?: number;
  /** The id of the model's tool call being run (a sub-agent names its act events after it). */
  callId?: string;
}

/** What the policy layer needs to know about one call (see src/policy/types.ts PolicyRequest). */
export interface PolicyTarget {
  /** The main argument(s) rules match against: the command for exec, workspace-relative paths for file
   * tools (every path a patch touches), the URL for fetch. */
  targets: string[];
  /** Paths that need approval even when a rule would allow (agent config, .git internals). */
  sensitive: boolean;
  /** The user trusts the tool's own claim to be read-only (an MCP server marked `trust: true`): a
   * read-only call is then allowed by default, like a read of a workspace file. */
  trusted?: boolean;
  /** A read inside an activated skill's folder (Workspace.readOnlyRoots): allowed by default like a read
   * of the workspace, though its path is outside it. */
  skillFolder?: boolean;
}

/** What kind of callable a tool is. Every kind goes through the same pipeline (src/agents/loop/tool-calls/invoke.ts). */
export type ToolKind = "primitive" | "agent" | "verify" | "mcp";

/** What a tool's run returns: its output, and whether the session must stop (`--on-ask fail` met a
 * question nobody can answer, e.g. inside a sub-agent); the message says which. */
export interface ToolRunOutput extends ToolOutput {
  stop?: string;
}

/**
 * Every callable thing: primitives, sub-agents, `verify:` commands and MCP server tools. The pipeline
 * (src/agents/loop/tool-calls/invoke.ts) validates the arguments, runs hooks, asks the approval gate about the policy
 * target, calls `execute`, then redacts and truncates the output once.
 */
export interface Tool<A = Record<string, unknown>> {
  /** The name the model calls (and hooks and events show). */
  name: string;
  kind: ToolKind;
  description: string;
  parameters: JsonSchema;
  /** Only reads: read-only workspace tools are allowed by default. */
  readOnly: boolean;
  /** May run alongside the other concurrent calls of one response; the others run alone, in order. */
  concurrent: boolean;
  /** The tool name approval rules and hooks match: `exec` for a `verify:` command, the name otherwise
   * (`mcp:server/tool` for an MCP tool). */
  policyName: string;
  /** Allowed when no rule matches (a sub-agent holds no permission of its own: each call it makes is gated). */
  allowByDefault?: boolean;
  validate(args: unknown): ValidationResult<A>;
  /** What policy rules match against (may throw: the error becomes the result). */
  policyTarget(args: A, ctx: ToolContext): Promise<PolicyTarget>;
  /** The call's main argument as results and reports show it, when not its policy targets (a sub-agent's goal). */
  label?(args: A): string;
  /** What an approval prompt shows. */
  preview(args: A, ctx: ToolContext): Promise<string>;
  /** Runs a validated, approved call. The raw output: the pipeline redacts and truncates it. May throw. */
  execute(args: A, ctx: ToolContext): Promise<ToolRunOutput>;
}

export type ValidationResult<A> = { ok: true; value: A } | { ok: false; error: string };

/** A primitive the model can call (built with definePrimitive). */
export interface Primitive<A = Record<string, unknown>> extends Tool<A> {
  name: PrimitiveName;
  kind: "primitive";
  /** Runs the call on its own, outside a session's pipeline (tests, scripts): validates, runs, and
   * redacts (`ctx.redactor`, else from the environment) and truncates like the pipeline. Expected failures
   * come back as results with `isError`. */
  run(args: unknown, ctx: ToolContext): Promise<ToolOutput>;
}
