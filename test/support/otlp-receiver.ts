/**
 * A local OTLP/HTTP trace receiver on 127.0.0.1 for tests: answers POST /v1/traces as a collector does
 * (200 with an empty ExportTraceServiceResponse) and keeps every request, raw and decoded.
 *
 * The OTLP/HTTP JSON encoding (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding): the
 * body is an ExportTraceServiceRequest as JSON, field names in lowerCamelCase, trace and span ids as hex
 * strings, 64-bit integers as numbers or decimal strings; @opentelemetry/exporter-trace-otlp-http sends
 * `Content-Type: application/json`.
 */

export type AttributeValue = string | number | boolean | AttributeValue[] | undefined;

/** One span as received, attributes flattened to plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  status: { code: number; message?: string };
  events: { name: string; attributes: Record<string, AttributeValue> }[];
  /** The resource's attributes (service.name, ...). */
  resource: Record<string, AttributeValue>;
}

export interface ReceivedRequest {
  path: string;
  contentType: string;
  headers: Record<string, string>;
  body: string;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  requests: ReceivedRequest[];
  /** Every span of every request so far. */
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpAnyValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpAnyValue[] };
}

interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number; message?: string };
  events?: { name: string; attributes?: OtlpKeyValue[] }[];
}

interface ExportTraceServiceRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

function plain(value: OtlpAnyValue | undefined): AttributeValue {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

function attributes(list: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, plain(kv.value)]));
}

/** Decodes one OTLP/JSON trace export body into spans. */
export function decodeTraces(body: string): ReceivedSpan[] {
  const request = JSON.parse(body) as ExportTraceServiceRequest;
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributes(resourceSpans.resource?.attributes);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
          name: span.name,
          kind: span.kind,
          startMs: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
          endMs: Number(BigInt(span.endTimeUnixNano) / 1_000_000n),
          attributes: attributes(span.attributes),
          status: {
            code: span.status?.code ?? 0,
            ...(span.status?.message ? { message: span.status.message } : {}),
          },
          events: (span.events ?? []).map((e) => ({ name: e.name, attributes: attributes(e.attributes) })),
          resource,
        });
      }
    }
  }
  return spans;
}

export function startOtlpReceiver(): OtlpReceiver {
  const requests: ReceivedRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requests.push({
        path,
        contentType: request.headers.get("content-type") ?? "",
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
      });
      if (request.method !== "POST" || path !== "/v1/traces")
        return new Response("not found", { status: 404 });
      return Response.json({});
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    spans: () => requests.filter((r) => r.path === "/v1/traces").flatMap((r) => decodeTraces(r.body)),
    close: async () => {
      await server.stop(true);
    },
  };
}
