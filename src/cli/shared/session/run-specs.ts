/**
 * The specs of one `agent run`, checked as `agent agents validate` checks them (models, capabilities,
 * constraints, every error in one pass). Errors in specs the chosen agent reaches end the run (exit 3,
 * every error listed); errors in specs it never reaches are warnings on stderr. `mcp:` capabilities are
 * checked against `config.mcpServers` (the caller adds a trusted project's servers).
 */
import { errorsForRun, modelNameCheck, type SpecError } from "../../../agents/spec/spec-checks.ts";
import {
  formatSpecError,
  loadSpecs,
  type SpecLoadResult,
  specAppError,
} from "../../../agents/spec/spec-loader.ts";
import type { AgentConfig } from "../../../sdk/config/config.ts";
import { stderr as processStderr } from "../io/std-streams.ts";

export async function loadRunSpecs(
  workspaceRoot: string,
  env: Record<string, string | undefined>,
  config: AgentConfig,
  agentName: string,
  stderr: { write(text: string): unknown } = processStderr,
): Promise<SpecLoadResult> {
  const loaded = await loadSpecs({
    workspaceRoot,
    env,
    checkModel: modelNameCheck(env, config),
    mcpServers: Object.keys(config.mcpServers),
  });
  const { fatal, warnings, offeredByWildcard } = errorsForRun(agentName, loaded.errors, loaded.graph);
  if (fatal.length > 0) throw specAppError(fatal);
  for (const warning of warnings) {
    stderr.write(
      `agent: warning: ${formatSpecError(warning)} (${skippedBecause(warning, agentName, offeredByWildcard)})\n`,
    );
  }
  return loaded;
}

/** Why an invalid spec is left out of the run, without claiming it is out of reach when `agents:*` would offer it. */
function skippedBecause(warning: SpecError, agentName: string, offeredByWildcard: boolean): string {
  const which = warning.agent !== undefined ? `agent ${warning.agent}` : "this spec";
  if (offeredByWildcard)
    return `skipped: ${agentName}'s agents:* would offer ${which}, but it is invalid; this run goes on without it`;
  return `skipped: ${agentName} does not reach ${which}`;
}
