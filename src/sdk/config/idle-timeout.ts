import { IDLE_TIMEOUT_VAR } from "../../llm/client.ts";
import type { AgentConfig } from "./agent-config.ts";

/**
 * The `idleTimeoutMs` option of createModelClient from the user config. Precedence, as for every other
 * setting: the environment (AGENT_IDLE_TIMEOUT_MS, read by the client itself) over config
 * (`defaults.provider_idle_timeout_ms`) over the default (60 s). There is no flag. So the option is set
 * only when the variable is not: an explicit option would win over the variable in the client.
 */
export function idleTimeoutOption(
  config: Pick<AgentConfig, "defaults">,
  env: Record<string, string | undefined>,
): { idleTimeoutMs?: number } {
  const fromEnv = env[IDLE_TIMEOUT_VAR];
  const fromConfig = config.defaults.providerIdleTimeoutMs;
  if ((fromEnv !== undefined && fromEnv !== "") || fromConfig === undefined) return {};
  return { idleTimeoutMs: fromConfig };
}
