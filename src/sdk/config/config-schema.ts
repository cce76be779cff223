/**
 * The zod schema of `$XDG_CONFIG_HOME/agent/config.yaml`. Loaded only when a config file exists
 * (see config.ts), so a run without config never pays for zod.
 */
import { z } from "zod";
import { REASONING_EFFORTS } from "../../kernel/conversation/stream.ts";
import { NOTIFY_METHODS } from "../../kernel/run-events/notifications.ts";
import { parseRule } from "../../policy/rules.ts";
import { SANDBOX_MODES } from "../../tools/exec/sandbox-settings.ts";
import { SERVER_NAME } from "../../tools/mcp/names.ts";

const modelList = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)], {
  error:
    "expected a model name or a list of model names (a tier entry such as claude-haiku-5-5 or ollama:llama3.2)",
});

const RESERVED = new Set(["anthropic", "openai", "gemini", "google"]);

const compatibleProvider = z.strictObject({
  kind: z.literal("openai-compatible", {
    error: "expected kind: openai-compatible (the only kind config can add)",
  }),
  base_url: z.url({ error: "expected base_url: an http(s) URL such as http://localhost:11434/v1" }),
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected api_key_env: the name of an environment variable" })
    .optional(),
  // Send reasoning back as `reasoning_content` on assistant turns (DeepSeek-style thinking servers).
  send_reasoning_content: z.boolean({ error: "expected send_reasoning_content: true or false" }).optional(),
});

const effort = z.enum(REASONING_EFFORTS as [string, ...string[]], {
  error: `expected a reasoning effort: ${REASONING_EFFORTS.join(", ")}`,
});

const stringMap = (what: string) =>
  z.record(z.string(), z.string({ error: `expected ${what}: a map of names to strings` }), {
    error: `expected ${what}: a map of names to strings`,
  });

/** What a server may cost a run: how long a call may go quiet, how much of it the model sees, which tools. */
const mcpRuntimeKeys = {
  tool_timeout_ms: z
    .number({ error: "expected tool_timeout_ms: a number of milliseconds" })
    .int()
    .positive()
    .optional(),
  max_description_chars: z
    .number({ error: "expected max_description_chars: a number of characters" })
    .int()
    .positive()
    .optional(),
  max_tools_bytes: z
    .number({ error: "expected max_tools_bytes: a number of bytes" })
    .int()
    .positive()
    .optional(),
  tools: z
    .array(z.string().min(1), { error: "expected tools: a list of the server's tool names" })
    .optional(),
  exclude_tools: z
    .array(z.string().min(1), { error: "expected exclude_tools: a list of the server's tool names" })
    .optional(),
  sampling: z.boolean({ error: "expected sampling: true or false" }).optional(),
};

const envName = (what: string) =>
  z
    .string({ error: `expected ${what}: the name of an environment variable` })
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: `expected ${what}: the name of an environment variable` });

/** OAuth at an HTTP server (docs/mcp.md "OAuth"): a pre-registered client, scopes, client credentials for CI. */
const mcpOAuth = z
  .strictObject({
    grant: z
      .enum(["authorization_code", "client_credentials"], {
        error: "expected grant: authorization_code or client_credentials",
      })
      .optional(),
    client_id: z.string({ error: "expected client_id: a string" }).min(1).optional(),
    client_secret: z.string({ error: "expected client_secret: a string" }).min(1).optional(),
    client_secret_env: envName("client_secret_env").optional(),
    private_key_env: envName("private_key_env").optional(),
    signing_algorithm: z
      .string({ error: "expected signing_algorithm: a JWS algorithm such as ES256" })
      .optional(),
    scopes: z.array(z.string().min(1), { error: "expected scopes: a list of strings" }).optional(),
    client_metadata_url: z
      .url({ protocol: /^https$/, error: "expected client_metadata_url: an https URL" })
      .optional(),
    callback_port: z
      .number({ error: "expected callback_port: a port number" })
      .int()
      .min(1024, { error: "expected callback_port: a port from 1024 to 65535" })
      .max(65535, { error: "expected callback_port: a port from 1024 to 65535" })
      .optional(),
  })
  .superRefine((oauth, ctx) => {
    if (oauth.client_secret !== undefined && oauth.client_secret_env !== undefined) {
      ctx.addIssue({ code: "custom", message: "expected client_secret or client_secret_env, not both" });
    }
    const secret = oauth.client_secret ?? oauth.client_secret_env ?? oauth.private_key_env;
    if (oauth.grant === "client_credentials" && (oauth.client_id === undefined || secret === undefined)) {
      ctx.addIssue({
        code: "custom",
        message:
          "grant client_credentials needs client_id and client_secret_env (or client_secret, or private_key_env)",
      });
    }
  });

/** One MCP server: a command to run (stdio) or a URL (streamable HTTP), never both. */
const mcpServer = z
  .strictObject({
    command: z.string().min(1, { error: "expected command: the program that runs the server" }).optional(),
    args: z.array(z.string(), { error: "expected args: a list of strings" }).optional(),
    env: stringMap("env").optional(),
    // Where a stdio server starts: absolute, or relative to the config file's folder (never the workspace).
    cwd: z
      .string({ error: "expected cwd: a directory, absolute or relative to the config file's folder" })
      .min(1, { error: "expected cwd: a directory, absolute or relative to the config file's folder" })
      .optional(),
    url: z.url({ error: "expected url: an http(s) URL such as http://127.0.0.1:3000/mcp" }).optional(),
    headers: stringMap("headers").optional(),
    oauth: mcpOAuth.optional(),
    trust: z.boolean({ error: "expected trust: true or false" }).optional(),
    startup_timeout_ms: z
      .number({ error: "expected startup_timeout_ms: a number of milliseconds" })
      .int()
      .positive()
      .optional(),
    ...mcpRuntimeKeys,
  })
  .superRefine((server, ctx) => {
    if ((server.command === undefined) === (server.url === undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "expected either command (a stdio server) or url (HTTP), not both",
      });
    } else if (
      server.url !== undefined &&
      (server.args !== undefined || server.env !== undefined || server.cwd !== undefined)
    ) {
      ctx.addIssue({
        code: "custom",
        message: "args, env and cwd belong to a command server, not a url one",
      });
    } else if (server.command !== undefined && (server.headers !== undefined || server.oauth !== undefined)) {
      ctx.addIssue({
        code: "custom",
        message: "headers and oauth belong to a url server, not a command one",
      });
    }
  });

const ruleList = z.array(z.string().min(1), { error: "expected a list of rules such as exec:git status" });

/** `match` uses the rule syntax (`exec:*`, `write_file:src/**`, a bare tool name). */
const hookMatch = z.string().superRefine((text, ctx) => {
  try {
    parseRule(text, "allow", "user");
  } catch (error) {
    const why =
      error instanceof Error ? error.message.replace(/^invalid allow rule/, "invalid match") : String(error);
    ctx.addIssue({ code: "custom", message: why });
  }
});

const hook = z.strictObject({
  match: hookMatch.optional(),
  command: z
    .string({ error: "expected command: a shell command" })
    .min(1, { error: "expected command: a shell command" }),
  timeout_ms: z
    .number({ error: "expected timeout_ms: a number of milliseconds" })
    .int()
    .positive()
    .optional(),
});

const hookList = z.array(hook, {
  error: 'expected a list of hooks such as [{match: "exec:*", command: ./check.sh}]',
});

export const configSchema = z.strictObject({
  models: z
    .strictObject({
      fast: modelList.optional(),
      good: modelList.optional(),
      best: modelList.optional(),
      // auto: refresh the model catalog in the background at most daily (config-refresh.ts); off by default.
      refresh: z.enum(["auto", "off"], { error: "expected refresh: auto or off" }).optional(),
    })
    .optional(),
  reasoning_effort: z
    .strictObject({ fast: effort.optional(), good: effort.optional(), best: effort.optional() })
    .optional(),
  providers: z
    .record(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9_-]*$/i, { error: "expected a provider name of letters, digits, - and _" })
        .refine((name) => !RESERVED.has(name.toLowerCase()), {
          error: "anthropic, openai, gemini and google are built in; choose another name",
        }),
      compatibleProvider,
    )
    .optional(),
  rules: z
    .strictObject({ allow: ruleList.optional(), ask: ruleList.optional(), deny: ruleList.optional() })
    .optional(),
  hooks: z
    .strictObject({
      before_tool: hookList.optional(),
      after_tool: hookList.optional(),
      on_stop: hookList.optional(),
      on_notification: hookList.optional(),
    })
    .optional(),
  // When the terminal is told a run needs the user (docs/configuration.md "Notifications").
  notifications: z
    .strictObject({
      terminal: z
        .enum(NOTIFY_METHODS, { error: `expected terminal: ${NOTIFY_METHODS.join(", ")}` })
        .optional(),
      after_seconds: z
        .number({ error: "expected after_seconds: a number of seconds, 0 or more" })
        .nonnegative({ error: "expected after_seconds: a number of seconds, 0 or more" })
        .optional(),
    })
    .optional(),
  mcp_servers: z
    .record(
      z.string().regex(SERVER_NAME, {
        error: "expected an MCP server name of letters, digits, - and _ (it appears in mcp:NAME/TOOL)",
      }),
      mcpServer,
    )
    .optional(),
  // The revision `--worktree` branches from; Claude Code's `worktree.baseRef` chooses between "fresh" and
  // "head" (https://code.claude.com/docs/en/worktrees); here it is any revision git names, default HEAD.
  worktree: z
    .strictObject({
      base_ref: z
        .string({ error: "expected base_ref: a git revision such as HEAD, main or origin/main" })
        .min(1, { error: "expected base_ref: a git revision such as HEAD, main or origin/main" })
        .refine((ref) => !ref.startsWith("-"), { error: "expected base_ref: a git revision, not an option" })
        .optional(),
    })
    .optional(),
  trusted_projects: z
    .array(z.string().startsWith("/", { error: "expected an absolute path" }), {
      error: "expected trusted_projects: a list of absolute project paths",
    })
    .optional(),
  trusted_suites: z
    .array(z.string().startsWith("/", { error: "expected an absolute path" }), {
      error: "expected trusted_suites: a list of absolute eval suite file paths",
    })
    .optional(),
  defaults: z
    .strictObject({
      agent: z.string().min(1).optional(),
      on_ask: z.enum(["deny", "fail", "allow"], { error: "expected on_ask: deny, fail or allow" }).optional(),
      fallback: z.boolean({ error: "expected fallback: true or false" }).optional(),
      compact_threshold: z
        .number({ error: "expected compact_threshold: a number above 0 and at most 1 (e.g. 0.8)" })
        .gt(0, { error: "expected compact_threshold: a number above 0 and at most 1 (e.g. 0.8)" })
        .max(1, { error: "expected compact_threshold: a number above 0 and at most 1 (e.g. 0.8)" })
        .optional(),
      max_budget_usd: z
        .number({ error: "expected max_budget_usd: a positive number of US dollars, e.g. 0.50" })
        .positive({ error: "expected max_budget_usd: a positive number of US dollars, e.g. 0.50" })
        .optional(),
      max_tokens: z
        .number({ error: "expected max_tokens: a positive whole number of tokens" })
        .int({ error: "expected max_tokens: a positive whole number of tokens" })
        .positive({ error: "expected max_tokens: a positive whole number of tokens" })
        .optional(),
      // How long a provider may stay silent before the request fails with idle_timeout (src/llm/client.ts).
      provider_idle_timeout_ms: z
        .number({ error: "expected provider_idle_timeout_ms: a positive whole number of milliseconds" })
        .int({ error: "expected provider_idle_timeout_ms: a positive whole number of milliseconds" })
        .positive({ error: "expected provider_idle_timeout_ms: a positive whole number of milliseconds" })
        .optional(),
    })
    .optional(),
  // Traces over OTLP/HTTP (src/telemetry/settings.ts); the variables OTEL_EXPORTER_OTLP_* win over it.
  telemetry: z
    .strictObject({
      endpoint: z
        .url({ protocol: /^https?$/, error: "expected endpoint: an http(s) URL, e.g. http://localhost:4318" })
        .optional(),
      headers: z
        .record(z.string(), z.string({ error: "expected headers: a map of header names to strings" }))
        .optional(),
      include_content: z.boolean({ error: "expected include_content: true or false" }).optional(),
    })
    .optional(),
  sandbox: z
    .strictObject({
      mode: z.enum(SANDBOX_MODES, { error: `expected mode: ${SANDBOX_MODES.join(", ")}` }).optional(),
      network: z.boolean({ error: "expected network: true or false" }).optional(),
      required: z.boolean({ error: "expected required: true or false" }).optional(),
    })
    .optional(),
});

export type RawConfig = z.infer<typeof configSchema>;
