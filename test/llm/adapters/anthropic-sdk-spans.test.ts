/**
 * The Anthropic SDK traces its own calls when the process has a global OpenTelemetry tracer provider; agent
 * turns that off (its traces come from src/telemetry, redacted, from its own provider), so the SDK's span
 * bookkeeping never runs on a turn and no unredacted request content can reach someone else's provider.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, streamFor } from "../harness.ts";

let server: FakeLlmServer;
const exporter = new InMemorySpanExporter();
beforeAll(async () => {
  server = await startFakeLlmServer();
  trace.setGlobalTracerProvider(
    new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }),
  );
});
afterAll(async () => {
  trace.disable();
  await server.close();
});

test("a global tracer provider gets no span from the Anthropic SDK, and requests carry no trace context", async () => {
  // The registered provider records: a span of our own reaches the exporter.
  trace.getTracer("probe").startSpan("probe").end();
  expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(["probe"]);
  exporter.reset();
  server.enqueue({ text: "hello" });
  const request = makeRequest("anthropic", "claude-haiku-4-5", [{ role: "user", content: "hi" }]);
  expectDone(await collect(streamFor(server, "anthropic")(request)));
  expect(server.requests.at(-1)?.path).toContain("/v1/messages");
  expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual([]);
  expect(server.requests.at(-1)?.headers.traceparent).toBeUndefined();
});
