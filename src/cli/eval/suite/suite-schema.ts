/**
 * The shape of an eval suite file (docs/eval.md "Suite format"), as a zod schema. Every object is
 * strict, so a misspelt field is an error at its line rather than a setting silently ignored.
 */
import { z } from "zod";

const SANDBOX = ["workspace-write", "read-only", "off"] as const;
const STATUSES = ["success", "failure", "limit", "error", "interrupted"] as const;
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const positiveInt = z.number().int().positive();
const positive = z.number().positive();
const rules = z.array(z.string().min(1));

/** A check: a shell command that must exit 0 in the task's workspace copy after the run. */
const checkSchema = z.union([
  z.string().min(1),
  z.strictObject({
    run: z.string().min(1),
    name: z.string().min(1).optional(),
    /** Seconds before the check is killed and counted as failed. */
    timeout: positive.optional(),
  }),
]);

/** What the run itself must end with, besides the checks passing (a refusal, a denial, an exit code). */
const expectSchema = z.strictObject({
  status: z.enum(STATUSES).optional(),
  exit_code: z.number().int().min(0).max(255).optional(),
  finish_reason: z.string().min(1).optional(),
  /** A JavaScript regular expression the answer must match (case-insensitive). */
  answer_matches: z.string().min(1).optional(),
  /** At least this many denied tool calls (0 = none allowed is `max_denials: 0`). */
  min_denials: z.number().int().min(0).optional(),
  max_denials: z.number().int().min(0).optional(),
});

/** The workspace a task starts from: a folder (relative to the suite file) or a git ref of a repository. */
const workspaceSchema = z.union([
  z.string().min(1),
  z.strictObject({ git: z.string().min(1), ref: z.string().min(1) }),
]);

/** Settings a task may set and `defaults:` may give every task. */
const runSettings = {
  agent: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  max_turns: positiveInt.optional(),
  max_budget_usd: positive.optional(),
  max_tokens: positiveInt.optional(),
  /** Seconds: `agent run --timeout`. */
  timeout: positive.optional(),
  /** Seconds each check may take (default 120). */
  check_timeout: positive.optional(),
  sandbox: z.enum(SANDBOX).optional(),
  allow: rules.optional(),
  deny: rules.optional(),
  on_ask: z.enum(["deny", "fail", "allow"]).optional(),
  /** MCP servers of the user's config the task's run may use (none else reaches it). */
  mcp_servers: z.array(z.string().min(1)).optional(),
};

export const taskSchema = z.strictObject({
  id: z
    .string()
    .regex(ID, "an id of letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)"),
  goal: z.string().min(1),
  workspace: workspaceSchema,
  checks: z.array(checkSchema).optional(),
  expect: expectSchema.optional(),
  /** A JSON schema file (relative to the suite) the answer must match: `agent run --schema`. */
  schema: z.string().min(1).optional(),
  ...runSettings,
});

export const suiteSchema = z.strictObject({
  version: z.literal(1).optional(),
  name: z.string().min(1).optional(),
  defaults: z.strictObject(runSettings).optional(),
  tasks: z.array(taskSchema).min(1),
});

export type SuiteFile = z.infer<typeof suiteSchema>;
export type SuiteTaskFile = z.infer<typeof taskSchema>;
export type CheckFile = z.infer<typeof checkSchema>;
export type TaskExpectation = z.infer<typeof expectSchema>;
export type SandboxMode = (typeof SANDBOX)[number];

/** Field names per object, for "unknown field; expected one of" messages. */
export const KNOWN_FIELDS = {
  suite: Object.keys(suiteSchema.shape),
  task: Object.keys(taskSchema.shape),
  defaults: Object.keys(runSettings),
  expect: Object.keys(expectSchema.shape),
  check: ["run", "name", "timeout"],
  workspace: ["git", "ref"],
} as const;
