/**
 * The telemetry entry the commands use: decides from the variables and the user config whether traces
 * are exported (settings.ts, no OpenTelemetry import), and only then loads the SDK (start.ts). A run with
 * telemetry off loads no @opentelemetry module (test/e2e/telemetry/off-loads-nothing.test.ts).
 */
import type { AgentEvent, Usage } from "../kernel/index.ts";
import { type TelemetryConfig, telemetrySettings } from "./settings.ts";

export type { TelemetryConfig } from "./settings.ts";

/** Spans from the event stream, and the bounded flush at exit. */
export interface Telemetry {
  /** Takes every event of the session, redacted, in order. */
  onEvent(event: AgentEvent): void;
  /** Ends open spans and exports what is left, waiting at most 1.5 s; resolves to a warning when
   * the traces could not be delivered. */
  shutdown(): Promise<string | undefined>;
}

export interface OpenTelemetryOptions {
  config: TelemetryConfig | undefined;
  env: Record<string, string | undefined>;
  /** agent's version, as `service.version` and the tracer's version. */
  version: string;
  /** USD of one model call (the catalog's prices). */
  costOf(model: string, usage: Usage): number;
  /** A line for the user (an exporter that is not offered). */
  warn(message: string): void;
}

/** The run's telemetry, or undefined when it is off. */
export async function openTelemetry(options: OpenTelemetryOptions): Promise<Telemetry | undefined> {
  const { settings, warning } = telemetrySettings(options.config, options.env);
  if (warning !== undefined) options.warn(warning);
  if (!settings) return undefined;
  // OpenTelemetry's packages load only when traces are turned on.
  const { startTracing } = await import("./start.ts");
  return startTracing(settings, { version: options.version, costOf: options.costOf });
}
