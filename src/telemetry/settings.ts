/**
 * Whether a run exports traces, and where: decided from the standard OpenTelemetry variables and the
 * user config's `telemetry:` section, before anything of the OpenTelemetry SDK is loaded (this module
 * imports none of it). Off unless a variable or the user config names an endpoint.
 *
 * Variables (OpenTelemetry specification, "Environment Variable Specification" and "OTLP Exporter
 * Configuration", https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/ and
 * https://opentelemetry.io/docs/specs/otel/protocol/exporter/):
 * - `OTEL_SDK_DISABLED=true` turns everything off, whatever else is set;
 * - `OTEL_TRACES_EXPORTER`: `none` turns traces off; `otlp` turns them on (to the exporter's default
 *   endpoint, http://localhost:4318/v1/traces, when no endpoint is named); other exporters are not offered;
 * - `OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL, `/v1/traces` appended) or
 *   `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL) turn traces on; the OTLP exporter reads them, and
 *   `OTEL_EXPORTER_OTLP_HEADERS` / `_TRACES_HEADERS`, itself;
 * - `OTEL_SERVICE_NAME` / `OTEL_RESOURCE_ATTRIBUTES` name the service (default `agent`);
 * - `OTEL_EXPORTER_OTLP_PROTOCOL`: only `http/json` is offered (a warning names any other value);
 * - `OTEL_SEMCONV_STABILITY_OPT_IN` (see `legacyAttributes`);
 * - `TRACEPARENT` / `TRACESTATE`: the trace this run joins (environment variables as context carriers,
 *   https://opentelemetry.io/docs/specs/otel/context/env-carriers/).
 *
 * Only the user's own config (`$XDG_CONFIG_HOME/agent/config.yaml`) has a `telemetry:` section: a
 * repository cannot turn export on or point it at its own endpoint (bin/agent also keeps Bun from loading
 * the repository's `.env` into the environment).
 */

/** `telemetry:` of the user config (sdk/config/config-schema.ts validates it). */
export interface TelemetryConfig {
  /** The collector's base URL, as OTEL_EXPORTER_OTLP_ENDPOINT (`/v1/traces` is appended). */
  endpoint?: string;
  /** Headers of every export request (an API key of a hosted backend, say). */
  headers?: Record<string, string>;
  /** Record prompts, answers, tool arguments and results (redacted) on the spans; default false. */
  includeContent?: boolean;
}

export interface TelemetrySettings {
  /** The traces URL from the config; absent when a variable names the endpoint (the exporter reads it). */
  url?: string;
  /** Headers from the config; absent when a variable sets headers (the exporter reads them). */
  headers?: Record<string, string>;
  includeContent: boolean;
  /**
   * Also set `gen_ai.system`, the provider attribute of GenAI conventions v1.36 and before, for backends
   * that still read it; `OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental` asks for the latest
   * conventions only (semantic-conventions v1.41.0 docs/gen-ai/gen-ai-agent-spans.md, the transition note).
   */
  legacyAttributes: boolean;
  /** The trace to join (W3C trace context from TRACEPARENT / TRACESTATE). */
  traceparent?: string;
  tracestate?: string;
}

export type TelemetryDecision = { settings?: TelemetrySettings; warning?: string };

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const text = env[name]?.trim();
  return text === undefined || text === "" ? undefined : text;
}

/** The traces URL of a base endpoint, as the exporter builds it from OTEL_EXPORTER_OTLP_ENDPOINT. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.endsWith("/") ? endpoint : `${endpoint}/`}v1/traces`;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** Decides whether traces are exported; `settings` is absent when they are not. */
export function telemetrySettings(config: TelemetryConfig | undefined, env: Env): TelemetryDecision {
  if (value(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return {};
  const exporters = (value(env, "OTEL_TRACES_EXPORTER") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  if (exporters.includes("none")) return {};
  const others = exporters.filter((name) => name !== "otlp");
  const warning =
    others.length > 0
      ? `OTEL_TRACES_EXPORTER=${others.join(",")} is not offered: agent exports traces over OTLP/HTTP only (otlp or none)`
      : undefined;
  const endpointVariable = ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"].find(
    (name) => value(env, name) !== undefined,
  );
  const envEndpoint = endpointVariable !== undefined ? value(env, endpointVariable) : undefined;
  // The exporter would fall back to localhost:4318 without a word; a typo is named and exports nothing.
  if (endpointVariable !== undefined && envEndpoint !== undefined && !isHttpUrl(envEndpoint)) {
    return { warning: `${endpointVariable}=${envEndpoint} is not an http(s) URL; traces are not exported` };
  }
  const envHeaders =
    value(env, "OTEL_EXPORTER_OTLP_TRACES_HEADERS") ?? value(env, "OTEL_EXPORTER_OTLP_HEADERS");
  const on = envEndpoint !== undefined || config?.endpoint !== undefined || exporters.includes("otlp");
  if (!on) return warning ? { warning } : {};
  // The exporter speaks OTLP/HTTP with JSON bodies only (@opentelemetry/exporter-trace-otlp-http).
  const protocol =
    value(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? value(env, "OTEL_EXPORTER_OTLP_PROTOCOL");
  const protocolWarning =
    protocol !== undefined && protocol !== "http/json"
      ? `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not offered: agent sends http/json (a collector takes it on its HTTP port, 4318)`
      : undefined;
  const optIn = (value(env, "OTEL_SEMCONV_STABILITY_OPT_IN") ?? "").split(",").map((v) => v.trim());
  const traceparent = value(env, "TRACEPARENT");
  const tracestate = value(env, "TRACESTATE");
  const settings: TelemetrySettings = {
    includeContent: config?.includeContent === true,
    legacyAttributes: !optIn.includes("gen_ai_latest_experimental"),
    // The variables win over the config, as a variable set for one job overrides a machine's settings.
    ...(envEndpoint === undefined && config?.endpoint !== undefined
      ? { url: tracesUrl(config.endpoint) }
      : {}),
    ...(envHeaders === undefined && config?.headers !== undefined ? { headers: config.headers } : {}),
    ...(traceparent !== undefined ? { traceparent } : {}),
    ...(tracestate !== undefined ? { tracestate } : {}),
  };
  const warnings = [warning, protocolWarning].filter((w) => w !== undefined).join("; ");
  return warnings !== "" ? { settings, warning: warnings } : { settings };
}
