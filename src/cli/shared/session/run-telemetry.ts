/**
 * A command's OpenTelemetry traces (src/telemetry/), set up from the user config and the variables:
 * undefined when telemetry is off (nothing of the SDK is loaded then). `finish` ends the spans and waits
 * for the export at most 1.5 s, so a collector that is down never holds the exit code back.
 */
import pkg from "../../../../package.json" with { type: "json" };
import { terminalSafe, type Usage } from "../../../kernel/index.ts";
import type { AgentConfig } from "../../../sdk/config/config.ts";
import { openTelemetry, type Telemetry } from "../../../telemetry/telemetry.ts";
import { stderr } from "../io/std-streams.ts";

export type { Telemetry } from "../../../telemetry/telemetry.ts";

function warn(message: string): void {
  stderr.write(`agent: warning: telemetry: ${terminalSafe(message)}\n`);
}

/** The traces of this process, or undefined when telemetry is off. `cost`: the model client's prices
 * (ModelClient.costOf: 0 for a replay). */
export function commandTelemetry(
  config: AgentConfig,
  env: Record<string, string | undefined>,
  cost: (model: string, usage: Usage) => number,
): Promise<Telemetry | undefined> {
  return openTelemetry({
    config: config.telemetry,
    env,
    version: pkg.version,
    costOf: cost,
    warn,
  });
}

/** Ends the traces and exports what is left (bounded); a failed export is one warning line. */
export async function finishTelemetry(telemetry: Telemetry | undefined): Promise<void> {
  const problem = await telemetry?.shutdown();
  if (problem !== undefined) warn(problem);
}
