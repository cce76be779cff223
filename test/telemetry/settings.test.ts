/** When traces are exported, and where: the variables and the user config (src/telemetry/settings.ts). */
import { describe, expect, test } from "bun:test";
import { telemetrySettings } from "../../src/telemetry/settings.ts";

describe("telemetrySettings", () => {
  test("off by default: no variable, no config", () => {
    expect(telemetrySettings(undefined, {})).toEqual({});
  });

  test("an endpoint variable turns traces on; the exporter reads it (no url of ours)", () => {
    const { settings } = telemetrySettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" });
    expect(settings).toEqual({ includeContent: false, legacyAttributes: true });
    expect(
      telemetrySettings(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c/v1/traces" }).settings,
    ).toBeDefined();
  });

  test("an endpoint variable that is not an http(s) URL is named, and nothing is exported", () => {
    const decision = telemetrySettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "localhost:4318" });
    expect(decision.settings).toBeUndefined();
    expect(decision.warning).toBe(
      "OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318 is not an http(s) URL; traces are not exported",
    );
  });

  test("the user config's endpoint and headers, unless variables set them", () => {
    const config = { endpoint: "http://collector:4318", headers: { "x-key": "k" }, includeContent: true };
    expect(telemetrySettings(config, {}).settings).toEqual({
      url: "http://collector:4318/v1/traces",
      headers: { "x-key": "k" },
      includeContent: true,
      legacyAttributes: true,
    });
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://other:4318", OTEL_EXPORTER_OTLP_HEADERS: "a=b" };
    expect(telemetrySettings(config, env).settings).toEqual({ includeContent: true, legacyAttributes: true });
  });

  test("OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none win over everything", () => {
    const config = { endpoint: "http://collector:4318" };
    expect(telemetrySettings(config, { OTEL_SDK_DISABLED: "TRUE" })).toEqual({});
    expect(telemetrySettings(config, { OTEL_TRACES_EXPORTER: "none" })).toEqual({});
  });

  test("OTEL_TRACES_EXPORTER=otlp alone turns traces on (the exporter's default endpoint); others warn", () => {
    expect(telemetrySettings(undefined, { OTEL_TRACES_EXPORTER: "otlp" }).settings).toBeDefined();
    const zipkin = telemetrySettings(undefined, { OTEL_TRACES_EXPORTER: "zipkin" });
    expect(zipkin.settings).toBeUndefined();
    expect(zipkin.warning).toContain("OTEL_TRACES_EXPORTER=zipkin is not offered");
  });

  test("a protocol other than http/json is named in a warning; traces still go out over http/json", () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" };
    const decision = telemetrySettings(undefined, env);
    expect(decision.settings).toBeDefined();
    expect(decision.warning).toContain("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not offered");
    const json = { ...env, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
    expect(telemetrySettings(undefined, json).warning).toBeUndefined();
  });

  test("OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental drops the pre-1.37 gen_ai.system", () => {
    const env = {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_SEMCONV_STABILITY_OPT_IN: "http,gen_ai_latest_experimental",
    };
    expect(telemetrySettings(undefined, env).settings?.legacyAttributes).toBe(false);
  });

  test("TRACEPARENT and TRACESTATE are carried to the root span", () => {
    const env = { OTEL_TRACES_EXPORTER: "otlp", TRACEPARENT: "00-a-b-01", TRACESTATE: "x=y" };
    expect(telemetrySettings(undefined, env).settings).toMatchObject({
      traceparent: "00-a-b-01",
      tracestate: "x=y",
    });
  });
});
