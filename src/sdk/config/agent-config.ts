import type { HooksConfig } from "../../agents/hooks/hooks.ts";
import type { NotificationSettings } from "../../kernel/run-events/notifications.ts";
import type { ModelsConfig } from "../../llm/endpoints.ts";
import type { TelemetryConfig } from "../../telemetry/settings.ts";
import type { SandboxSettings } from "../../tools/exec/sandbox-settings.ts";
import type { McpServerConfig } from "../../tools/mcp/types.ts";

/** The shape of the user config (config.ts loads it, config-parse.ts builds it): a leaf both import. */

/** The validated config, with list fields normalized and keys in camelCase. */
export interface AgentConfig extends ModelsConfig {
  /** The file it came from; absent when there was none. */
  file?: string;
  models: Partial<Record<"fast" | "good" | "best", string[]>>;
  /** `models.refresh: auto`: refresh the model catalog in the background at most daily (config-refresh.ts). */
  modelsRefresh?: "auto";
  providers: NonNullable<ModelsConfig["providers"]>;
  rules: { allow: string[]; ask: string[]; deny: string[] };
  mcpServers: Record<string, McpServerConfig>;
  /** `fallback: false` keeps runs on the model they resolved to (like `--no-fallback`);
   * `max_budget_usd` / `max_tokens` are the budgets of a run when no flag sets them. */
  defaults: {
    agent?: string;
    onAsk?: "deny" | "fail" | "allow";
    fallback?: boolean;
    /** Share of the context window past which a conversation is compacted (default 0.8). */
    compactThreshold?: number;
    maxBudgetUsd?: number;
    maxTokens?: number;
    /** How long a silent provider is waited for (ms); AGENT_IDLE_TIMEOUT_MS overrides it (idle-timeout.ts). */
    providerIdleTimeoutMs?: number;
  };
  /** Commands run around tool calls and at the end of a run (src/agents/hooks/hooks.ts). */
  hooks?: HooksConfig;
  /** Absolute paths of projects whose `.agent/config.yaml` may declare hooks (and MCP servers). */
  trustedProjects: string[];
  /** Absolute paths of eval suite files that may loosen the rules (`sandbox: off`, `on_ask: allow`,
   * `allow:`) for their tasks, as `agent eval --trust-suite` does (src/cli/eval/suite/suite-trust.ts). */
  trustedSuites?: string[];
  /** `sandbox:` as written; flags override it (sandbox-setup.ts). */
  sandbox?: SandboxSettings;
  /** `worktree.base_ref`: the revision `--worktree` branches from (default HEAD; docs/worktrees.md). */
  worktree?: { baseRef?: string };
  /** `telemetry:` (endpoint, headers, include_content): traces over OTLP (src/telemetry/settings.ts). */
  telemetry?: TelemetryConfig;
  /** `notifications:` as written (terminal method, after_seconds); defaults in notificationSettings. */
  notifications?: Partial<NotificationSettings>;
}

export function emptyConfig(): AgentConfig {
  return {
    models: {},
    providers: {},
    rules: { allow: [], ask: [], deny: [] },
    mcpServers: {},
    trustedProjects: [],
    defaults: {},
  };
}
