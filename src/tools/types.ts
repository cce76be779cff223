import type { JsonSchema, Redactor, ToolOutput } from "../kernel/index.ts";
import type { Workspace } from "./workspace.ts";

export type PrimitiveName =
  | "read_file"
  | "write_file"
  | "edit_file"
  | "apply_patch"
  | "exec"
  | "grep"
  | "glob"
  | "fetch";

export const PRIMITIVE_NAMES: readonly PrimitiveName[] = [
  "read_file",
  "write_file",
  "edit_file",
  "apply_patch",
  "exec",
  "grep",
  "glob",
  "fetch",
];

/** Everything a primitive may touch while it runs. */
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
  /** Wall-clock bound of one grep search in milliseconds; defaults to GREP_TIME_LIMIT_MS (grep-runner.ts). */
  searchTimeoutMs?: number;
}

/** What the policy layer needs to know about one call (see src/policy/types.ts PolicyRequest). */
export interface PolicyTarget {
  /** The main argument(s) rules match against: the command for exec, workspace-relative paths for file
   * tools (every path a patch touches), the URL for fetch. */
  targets: string[];
  /** Paths that need approval even when a rule would allow (agent config, .git internals). */
  sensitive: boolean;
}

export type ValidationResult<A> = { ok: true; value: A } | { ok: false; error: string };

/** A primitive the model can call. Arguments are validated before `run`; errors become results. */
export interface Primitive<A = Record<string, unknown>> {
  name: PrimitiveName;
  description: string;
  parameters: JsonSchema;
  /** Read-only primitives may run concurrently and are allowed by default inside the workspace. */
  readOnly: boolean;
  validate(args: unknown): ValidationResult<A>;
  /** What policy rules match against; paths resolved inside the workspace (throws WorkspaceError outside,
   * and an error naming the problem when the arguments cannot be interpreted, e.g. a patch that does not parse). */
  policyTarget(args: A, ctx: ToolContext): Promise<PolicyTarget>;
  /** What an approval prompt shows: a unified diff for writes, the command for exec, the URL for fetch. */
  preview(args: A, ctx: ToolContext): Promise<string>;
  /** Runs the call. Expected failures (bad path, no match, timeout) come back as results with `isError`;
   * `modelText` is already redacted and truncated. May still throw; the loop turns a throw into an error result. */
  run(args: A, ctx: ToolContext): Promise<ToolOutput>;
}
