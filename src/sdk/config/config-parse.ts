/**
 * Parses and validates config.yaml text. Errors name file, line, field and what was expected:
 * `~/.config/agent/config.yaml line 7: providers.ollama.base_url: expected base_url: an http(s) URL ...`.
 */
import { isMap, isScalar, LineCounter, type Node, parseDocument } from "yaml";
import type { z } from "zod";
import type { HookSpec, HooksConfig } from "../../agents/hooks/hooks.ts";
import { MAX_ALIAS_COUNT, yamlAliasMessage } from "../../kernel/files/config-file.ts";
import { AppError, type ReasoningEffort } from "../../kernel/index.ts";
import { nearestName } from "../../kernel/text/nearest-name.ts";
import {
  DEFAULT_STARTUP_TIMEOUT_MS,
  type McpOAuthConfig,
  type McpToolLimits,
} from "../../tools/mcp/types.ts";
import { type AgentConfig, emptyConfig } from "./agent-config.ts";
import { configSchema, type RawConfig } from "./config-schema.ts";

type Doc = ReturnType<typeof parseDocument>;
type PathKey = string | number;

function fieldText(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join(".") || "(top level)";
}

function nodeAt(doc: Doc, path: PathKey[]): Node | undefined {
  const node = doc.getIn(path, true);
  return node && typeof node === "object" && "range" in node ? (node as Node) : undefined;
}

/** Offset of the key `key` inside the map at `path`, if present. */
function keyOffset(doc: Doc, path: PathKey[], key: string): number | undefined {
  const map = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (!isMap(map)) return undefined;
  for (const pair of map.items) {
    if (isScalar(pair.key) && String(pair.key.value) === key) return pair.key.range?.[0];
  }
  return undefined;
}

/** The best source offset for an issue: the value's node, else the nearest existing ancestor. */
function issueOffset(doc: Doc, issue: z.core.$ZodIssue): number | undefined {
  const path = issue.path.filter((p): p is PathKey => typeof p === "string" || typeof p === "number");
  if (issue.code === "unrecognized_keys" && issue.keys[0] !== undefined) {
    const at = keyOffset(doc, path, issue.keys[0]);
    if (at !== undefined) return at;
  }
  if (issue.code === "invalid_key") {
    const last = path[path.length - 1];
    const at = typeof last === "string" ? keyOffset(doc, path.slice(0, -1), last) : undefined;
    if (at !== undefined) return at;
  }
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(doc, path.slice(0, n));
    if (node?.range) {
      // A missing field: point at its parent's key rather than the parent's first child.
      if (n < path.length && n > 0) {
        const parentKey = path[n - 1];
        const at =
          typeof parentKey === "string" ? keyOffset(doc, path.slice(0, n - 1), parentKey) : undefined;
        if (at !== undefined) return at;
      }
      return node.range[0];
    }
  }
  return undefined;
}

function describe(doc: Doc, issue: z.core.$ZodIssue): string {
  const field = fieldText(issue.path);
  const path = issue.path.filter((p): p is PathKey => typeof p === "string" || typeof p === "number");
  if (issue.code === "unrecognized_keys") {
    const names = issue.keys.map((k) => fieldText([...issue.path, k])).join(", ");
    const expected = expectedKeys(issue.path);
    // `model:` for `models:`: the known name nearest to the one key (src/kernel/text/nearest-name.ts).
    const near =
      issue.keys.length === 1 ? nearestName(String(issue.keys[0]), expected.split(/, | or /)) : undefined;
    return `${names}: unknown field;${near !== undefined ? ` did you mean "${near}"?` : ""} expected ${expected}`;
  }
  if (issue.code === "invalid_key") {
    const inner = issue.issues[0]?.message ?? issue.message;
    return `${field}: ${inner}`;
  }
  if (!doc.hasIn(path)) return `${field}: missing; ${issue.message.replace(/^Invalid input: /, "")}`;
  return `${field}: ${issue.message.replace(/^Invalid input: /, "")}`;
}

function expectedKeys(path: readonly PropertyKey[]): string {
  const [first] = path;
  if (path.length === 0)
    return "models, reasoning_effort, providers, rules, hooks, notifications, mcp_servers, trusted_projects, trusted_suites, defaults, sandbox or telemetry";
  if (first === "hooks" && path.length === 1) return "before_tool, after_tool, on_stop or on_notification";
  if (first === "notifications") return "terminal or after_seconds";
  if (first === "hooks") return "match, command or timeout_ms";
  if (first === "mcp_servers" && path[2] === "oauth")
    return "grant, client_id, client_secret, client_secret_env, private_key_env, signing_algorithm, scopes, client_metadata_url or callback_port";
  if (first === "mcp_servers")
    return "command, args, env, cwd, url, headers, oauth, trust, startup_timeout_ms, tool_timeout_ms, max_description_chars, max_tools_bytes, tools, exclude_tools or sampling";
  if (first === "models") return "fast, good, best or refresh";
  if (first === "reasoning_effort") return "fast, good or best";
  if (first === "rules") return "allow, ask or deny";
  if (first === "defaults")
    return "agent, on_ask, fallback, max_budget_usd, max_tokens, compact_threshold or provider_idle_timeout_ms";
  if (first === "providers") return "kind, base_url, api_key_env or send_reasoning_content";
  if (first === "sandbox") return "mode, network or required";
  if (first === "worktree") return "base_ref";
  if (first === "telemetry") return "endpoint, headers or include_content";
  return "a known field";
}

/** The limit keys a server sets (`max_description_chars`, `max_tools_bytes`, `tools`, `exclude_tools`). */
function mcpLimits(server: NonNullable<RawConfig["mcp_servers"]>[string]): {
  limits?: Partial<McpToolLimits>;
} {
  const limits: Partial<McpToolLimits> = {
    ...(server.max_description_chars !== undefined
      ? { maxDescriptionChars: server.max_description_chars }
      : {}),
    ...(server.max_tools_bytes !== undefined ? { maxToolsBytes: server.max_tools_bytes } : {}),
    ...(server.tools !== undefined ? { only: server.tools } : {}),
    ...(server.exclude_tools !== undefined ? { exclude: server.exclude_tools } : {}),
  };
  return Object.keys(limits).length > 0 ? { limits } : {};
}

function toList(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return typeof value === "string" ? [value] : value;
}

function normalize(raw: RawConfig, file: string): AgentConfig {
  const config = emptyConfig();
  config.file = file;
  for (const tier of ["fast", "good", "best"] as const) {
    const list = toList(raw.models?.[tier]);
    if (list) config.models[tier] = list;
  }
  if (raw.models?.refresh === "auto") config.modelsRefresh = "auto";
  if (raw.worktree?.base_ref !== undefined) config.worktree = { baseRef: raw.worktree.base_ref };
  for (const tier of ["fast", "good", "best"] as const) {
    const effort = raw.reasoning_effort?.[tier];
    if (effort !== undefined) {
      config.reasoningEffort ??= {};
      config.reasoningEffort[tier] = effort as ReasoningEffort;
    }
  }
  for (const [name, p] of Object.entries(raw.providers ?? {})) {
    config.providers[name] = {
      kind: "openai-compatible",
      baseUrl: p.base_url,
      ...(p.api_key_env ? { apiKeyEnv: p.api_key_env } : {}),
      ...(p.send_reasoning_content ? { sendReasoningContent: true } : {}),
    };
  }
  for (const [name, server] of Object.entries(raw.mcp_servers ?? {})) {
    const common = {
      trust: server.trust === true,
      startupTimeoutMs: server.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS,
      ...(server.tool_timeout_ms !== undefined ? { toolTimeoutMs: server.tool_timeout_ms } : {}),
      ...(server.sampling === true ? { sampling: true } : {}),
      ...mcpLimits(server),
    };
    config.mcpServers[name] =
      server.url !== undefined
        ? {
            transport: "http",
            url: server.url,
            headers: server.headers ?? {},
            ...(server.oauth !== undefined ? { oauth: normalizeOAuth(server.oauth) } : {}),
            ...common,
          }
        : {
            transport: "stdio",
            command: server.command ?? "",
            args: server.args ?? [],
            env: server.env ?? {},
            ...(server.cwd !== undefined ? { cwd: server.cwd } : {}),
            ...common,
          };
  }
  config.trustedProjects = raw.trusted_projects ?? [];
  if (raw.trusted_suites) config.trustedSuites = raw.trusted_suites;
  config.rules = { allow: raw.rules?.allow ?? [], ask: raw.rules?.ask ?? [], deny: raw.rules?.deny ?? [] };
  if (raw.hooks) config.hooks = normalizeHooks(raw.hooks);
  if (raw.defaults?.agent) config.defaults.agent = raw.defaults.agent;
  if (raw.defaults?.on_ask) config.defaults.onAsk = raw.defaults.on_ask;
  if (raw.defaults?.fallback !== undefined) config.defaults.fallback = raw.defaults.fallback;
  if (raw.defaults?.max_budget_usd !== undefined) config.defaults.maxBudgetUsd = raw.defaults.max_budget_usd;
  if (raw.defaults?.max_tokens !== undefined) config.defaults.maxTokens = raw.defaults.max_tokens;
  if (raw.defaults?.compact_threshold !== undefined)
    config.defaults.compactThreshold = raw.defaults.compact_threshold;
  if (raw.defaults?.provider_idle_timeout_ms !== undefined)
    config.defaults.providerIdleTimeoutMs = raw.defaults.provider_idle_timeout_ms;
  if (raw.sandbox) config.sandbox = { ...raw.sandbox };
  if (raw.notifications) {
    const { terminal, after_seconds } = raw.notifications;
    config.notifications = {
      ...(terminal !== undefined ? { terminal } : {}),
      ...(after_seconds !== undefined ? { afterSeconds: after_seconds } : {}),
    };
  }
  if (raw.telemetry) {
    const { endpoint, headers, include_content } = raw.telemetry;
    config.telemetry = {
      ...(endpoint !== undefined ? { endpoint } : {}),
      ...(headers !== undefined ? { headers } : {}),
      ...(include_content !== undefined ? { includeContent: include_content } : {}),
    };
  }
  return config;
}

function normalizeOAuth(
  raw: NonNullable<NonNullable<RawConfig["mcp_servers"]>[string]["oauth"]>,
): McpOAuthConfig {
  return {
    grant: raw.grant ?? "authorization_code",
    ...(raw.client_id !== undefined ? { clientId: raw.client_id } : {}),
    ...(raw.client_secret !== undefined ? { clientSecret: raw.client_secret } : {}),
    ...(raw.client_secret_env !== undefined ? { clientSecretEnv: raw.client_secret_env } : {}),
    ...(raw.private_key_env !== undefined ? { privateKeyEnv: raw.private_key_env } : {}),
    ...(raw.signing_algorithm !== undefined ? { signingAlgorithm: raw.signing_algorithm } : {}),
    ...(raw.scopes !== undefined ? { scopes: raw.scopes } : {}),
    ...(raw.client_metadata_url !== undefined ? { clientMetadataUrl: raw.client_metadata_url } : {}),
    ...(raw.callback_port !== undefined ? { callbackPort: raw.callback_port } : {}),
  };
}

function normalizeHooks(raw: NonNullable<RawConfig["hooks"]>): HooksConfig {
  const list = (hooks: (typeof raw)["before_tool"]): HookSpec[] =>
    (hooks ?? []).map((h) => ({
      command: h.command,
      ...(h.match !== undefined ? { match: h.match } : {}),
      ...(h.timeout_ms !== undefined ? { timeoutMs: h.timeout_ms } : {}),
    }));
  return {
    before_tool: list(raw.before_tool),
    after_tool: list(raw.after_tool),
    on_stop: list(raw.on_stop),
    ...(raw.on_notification ? { on_notification: list(raw.on_notification) } : {}),
  };
}

/** Parses config text; throws AppError("config") with file, line and field on any problem. */
export function parseConfigText(text: string, file: string): AgentConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const [syntax] = doc.errors;
  if (syntax) {
    const line = syntax.linePos?.[0].line ?? lineCounter.linePos(syntax.pos[0]).line;
    const message = syntax.message.split("\n")[0] ?? syntax.message;
    throw new AppError("config", `${file} line ${line}: invalid YAML: ${message}`, { file, line });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    throw new AppError("config", `${file}: ${yamlAliasMessage(error)}`, { file });
  }
  if (value === null || value === undefined) {
    const empty = emptyConfig();
    empty.file = file;
    return empty;
  }
  const parsed = configSchema.safeParse(value);
  if (parsed.success) return normalize(parsed.data, file);
  throw configProblems(doc, lineCounter, parsed.error.issues, file);
}

/**
 * Every problem of a config file at once, one `FILE line N: field: what was expected` each, in line
 * order (the AppError's `lines`, printed one per line); the first names the error's file, line and field.
 */
function configProblems(
  doc: Doc,
  lineCounter: LineCounter,
  issues: readonly z.core.$ZodIssue[],
  file: string,
): AppError {
  const problems = issues
    .flatMap((issue) =>
      // One problem per unknown key, each at its own line.
      issue.code === "unrecognized_keys" && issue.keys.length > 1
        ? issue.keys.map((key): z.core.$ZodIssue => ({ ...issue, keys: [key] }))
        : [issue],
    )
    .map((issue) => {
      const offset = issueOffset(doc, issue);
      const line = offset !== undefined ? lineCounter.linePos(offset).line : undefined;
      const field = fieldText(
        issue.code === "unrecognized_keys" ? [...issue.path, ...issue.keys.slice(0, 1)] : issue.path,
      );
      const where = line !== undefined ? `${file} line ${line}` : file;
      return { line, field, text: `${where}: ${describe(doc, issue)}` };
    })
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const [first] = problems;
  if (!first) return new AppError("config", `${file}: invalid config`, { file });
  const details: { file: string; line?: number; field: string; lines?: string[] } = {
    file,
    field: first.field,
  };
  if (first.line !== undefined) details.line = first.line;
  if (problems.length > 1) details.lines = problems.map((p) => p.text);
  return new AppError("config", problems.map((p) => p.text).join("\n"), details);
}
