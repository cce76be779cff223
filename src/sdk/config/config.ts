/**
 * User config: `$XDG_CONFIG_HOME/agent/config.yaml` (default `~/.config/agent/config.yaml`).
 *
 *   models:            # tier overrides; each a model name or an ordered list (first with credentials wins)
 *     fast: claude-haiku-5-5
 *     best: [anthropic:claude-opus-5-5, openai:gpt-6-astra]
 *     refresh: auto    # refresh the model catalog in the background when the cache is over a day old (default off)
 *   reasoning_effort:  # per tier: none | minimal | low | medium | high | xhigh | max (mapped per model)
 *     best: high
 *   providers:         # openai-compatible servers, used as `<name>:<model>`
 *     ollama:
 *       kind: openai-compatible
 *       base_url: http://localhost:11434/v1
 *       api_key_env: OLLAMA_API_KEY     # optional
 *       send_reasoning_content: true    # optional: DeepSeek-style servers that need reasoning back
 *   rules:             # approval rules: TOOL or TOOL:PATTERN
 *     allow: ["exec:git status"]
 *     ask: []
 *     deny: ["exec:rm *"]
 *   hooks:             # commands around tool calls: JSON event on stdin; exit 2 blocks with stderr as the reason
 *     before_tool: [{match: "exec:*", command: ./check.sh, timeout_ms: 30000}]
 *     after_tool: [{match: "write_file:src/**", command: ./lint.sh}]
 *     on_stop: [{command: ./notify.sh}]
 *     on_notification: [{command: ./ping.sh}]   # a run needs the user (Claude Code's Notification payload)
 *   notifications:     # the terminal is told when a run needs the user or a long run ends
 *     terminal: auto   # auto | osc9 | bell | off (auto: OSC 9 where the terminal shows it, else the bell)
 *     after_seconds: 30
 *   mcp_servers:       # MCP servers, named in specs as mcp:NAME or mcp:NAME/TOOL
 *     github: {command: github-mcp, args: [stdio], env: {TOKEN: x}, trust: true, startup_timeout_ms: 10000}
 *     docs: {url: http://127.0.0.1:3000/mcp, headers: {Authorization: Bearer x}}
 *   trusted_projects: [/home/me/src/app]   # projects whose .agent/config.yaml may declare hooks and mcp_servers
 *   trusted_suites: [/home/me/src/app/evals/suite.yaml]   # eval suites that may loosen rules (agent eval --trust-suite)
 *   defaults:
 *     agent: root
 *     on_ask: deny     # deny | fail | allow
 *     fallback: true   # false: never switch to a tier's next candidate (like --no-fallback)
 *     max_budget_usd: 0.50   # budget of each run unless --max-budget-usd says otherwise
 *     max_tokens: 200000     # token budget of each run unless --max-tokens says otherwise
 *     compact_threshold: 0.8   # share of the context window that triggers compaction (0 < x <= 1)
 *   sandbox:           # exec and verify: commands under bubblewrap (Linux); see src/tools/exec/sandbox.ts
 *     mode: workspace-write   # off | workspace-write | read-only (default: workspace-write where bwrap works)
 *     network: false          # true: sandboxed commands may reach the network
 *     required: false         # true: refuse to run (exit 3) when the sandbox is unavailable
 *   telemetry:         # OpenTelemetry traces over OTLP/HTTP (docs/telemetry.md); OTEL_* variables win
 *     endpoint: http://localhost:4318   # the collector's base URL (/v1/traces is appended)
 *     headers: {x-honeycomb-team: KEY}  # sent with every export
 *     include_content: false            # true: prompts, answers and tool arguments (redacted) on spans
 *
 * A missing file is an empty config. It is read with readConfigFile (no FIFOs, devices or files over
 * 1 MiB). A broken one is AppError("config") (exit 3) naming file, line,
 * field and what was expected. yaml and zod are imported only when the file exists.
 */
import { dirname, join } from "node:path";
import { readConfigFile } from "../../kernel/files/config-file.ts";
import { configDir } from "../../kernel/files/paths.ts";
import { type AgentConfig, emptyConfig } from "./agent-config.ts";

export { type AgentConfig, emptyConfig } from "./agent-config.ts";

/** Where config.yaml lives for this environment. */
export function configFile(env: Record<string, string | undefined> = process.env): string {
  return join(configDir(env), "config.yaml");
}

/** Loads and validates config.yaml; a missing file gives the empty config. */
export async function loadConfig(
  env: Record<string, string | undefined> = process.env,
): Promise<AgentConfig> {
  const file = configFile(env);
  const text = await readConfigFile(file, { kind: "config" });
  if (text === undefined) return emptyConfig();
  const { parseConfigText } = await import("./config-parse.ts");
  const config = parseConfigText(text, file);
  // The user's hooks name the user's scripts: `./check.sh` is next to config.yaml, not in the repository.
  if (config.hooks) {
    // Loaded only for a config that declares hooks (the hook matcher brings the shell parser).
    const { hooksDeclaredIn } = await import("../../agents/hooks/hooks.ts");
    config.hooks = hooksDeclaredIn(config.hooks, dirname(file));
  }
  return config;
}
