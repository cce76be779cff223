/**
 * The OpenTelemetry SDK, set up for one process: a tracer provider with a batch processor and the
 * OTLP/HTTP (JSON) trace exporter. Loaded only when telemetry.ts finds telemetry on, so a run without it
 * loads no OpenTelemetry module. Nothing is registered globally: the spans come from this provider only.
 *
 * The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and the rest itself
 * (@opentelemetry/otlp-exporter-base, platform/node/configuration/otlp-node-http-env-configuration);
 * the user config's endpoint and headers are passed only when no variable sets them (settings.ts).
 */
import { defaultTextMapGetter, ROOT_CONTEXT } from "@opentelemetry/api";
import { ExportResultCode, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { AgentEvent, Usage } from "../kernel/index.ts";
import type { TelemetrySettings } from "./settings.ts";
import { createSpanSink } from "./span-sink.ts";

/** How long the last export may take at exit: the exit code waits at most this long for the collector. */
export const FLUSH_BOUND_MS = 1500;

export interface Tracing {
  onEvent(event: AgentEvent): void;
  /** Ends open spans and sends what is left, waiting at most FLUSH_BOUND_MS; resolves to a warning
   * when the collector did not take them in time. */
  shutdown(): Promise<string | undefined>;
}

export function startTracing(
  settings: TelemetrySettings,
  options: { version: string; costOf(model: string, usage: Usage): number },
): Tracing {
  const otlp = new OTLPTraceExporter({
    // One try, bounded: a collector that is down or silent costs the run at most the flush bound.
    timeoutMillis: FLUSH_BOUND_MS - 100,
    ...(settings.url !== undefined ? { url: settings.url } : {}),
    ...(settings.headers !== undefined ? { headers: settings.headers } : {}),
  });
  // The SDK reports a failed export to its (silent) diagnostics only: kept, to say so at exit.
  let failure: string | undefined;
  const exporter: SpanExporter = {
    export(spans, done) {
      otlp.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) failure = result.error?.message ?? "the export failed";
        done(result);
      });
    },
    shutdown: () => otlp.shutdown(),
    forceFlush: () => otlp.forceFlush(),
  };
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) override our defaults.
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: "agent",
    [ATTR_SERVICE_VERSION]: options.version,
  }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor({ exporter, exportTimeoutMillis: FLUSH_BOUND_MS - 100 })],
  });
  const sink = createSpanSink({
    tracer: provider.getTracer("agent", options.version),
    parent: joinedTrace(settings),
    includeContent: settings.includeContent,
    legacyAttributes: settings.legacyAttributes,
    costOf: options.costOf,
  });
  return {
    onEvent: sink.onEvent,
    async shutdown() {
      sink.end();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(
          () => resolve(`traces not exported: the collector did not answer within ${FLUSH_BOUND_MS} ms`),
          FLUSH_BOUND_MS,
        );
        timer.unref?.();
      });
      const done = provider.shutdown().then(
        () => (failure !== undefined ? `traces not exported: ${failure}` : undefined),
        (error: unknown) => `traces not exported: ${error instanceof Error ? error.message : String(error)}`,
      );
      try {
        return await Promise.race([done, late]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The trace a CI system (or any parent process) passed in TRACEPARENT / TRACESTATE; none otherwise. */
function joinedTrace(settings: TelemetrySettings) {
  if (settings.traceparent === undefined) return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent: settings.traceparent };
  if (settings.tracestate !== undefined) carrier.tracestate = settings.tracestate;
  // An invalid value gives back the root context: the run starts a trace of its own.
  return new W3CTraceContextPropagator().extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}
