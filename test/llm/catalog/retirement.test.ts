/** Retirement notices (issue 20): the catalog's dates, one line naming the replacement, one warning event. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { unlistedCatalogModels } from "../../../src/llm/catalog/check.ts";
import {
  anthropicSdkDeprecations,
  installedSdkDeprecations,
  parseDeprecatedModels,
  sdkDay,
} from "../../../src/llm/catalog/sdk-deprecations.ts";
import { catalogEntries, retirementWarning } from "../../../src/llm/catalog.ts";
import { createModelClient } from "../../../src/llm/client.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, makeRequest, TEST_KEYS } from "../harness.ts";

const on = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe("retirementWarning", () => {
  test("within 30 days of shutdown, or past it, one line names the replacement", () => {
    expect(retirementWarning("claude-sonnet-4-5", on("2026-11-26"))).toBe(
      "claude-sonnet-4-5 shuts down on 2026-11-30 (in 4 days); use claude-sonnet-5-5 instead",
    );
    expect(retirementWarning("claude-sonnet-4-5-20250929", on("2026-12-01"))).toBe(
      "claude-sonnet-4-5-20250929 was shut down on 2026-11-30; use claude-sonnet-5-5 instead",
    );
    expect(retirementWarning("gpt-4o", on("2026-11-26"))).toBeUndefined();
    expect(retirementWarning("gpt-4o", on("2026-12-20"))).toBe(
      "gpt-4o shuts down on 2027-01-14 (in 25 days); use gpt-6-luna instead",
    );
    // The retired dated snapshot is not the live gpt-4o: it is past its shutdown.
    expect(retirementWarning("gpt-4o-2024-05-13", on("2026-11-26"))).toBe(
      "gpt-4o-2024-05-13 was shut down on 2026-10-23; use gpt-5.6-sol instead",
    );
    // The 2026-12-11 OpenAI batch and its dated snapshots (developers.openai.com/api/docs/deprecations).
    expect(retirementWarning("gpt-5", on("2026-11-29"))).toBe(
      "gpt-5 shuts down on 2026-12-11 (in 12 days); use gpt-6.1-sol instead",
    );
    expect(retirementWarning("o3-2025-04-16", on("2026-11-29"))).toBe(
      "o3-2025-04-16 shuts down on 2026-12-11 (in 12 days); use gpt-6.1-sol instead",
    );
    expect(retirementWarning("gpt-4.1-mini-2025-04-14", on("2026-12-20"))).toBe(
      "gpt-4.1-mini-2025-04-14 shuts down on 2027-01-14 (in 25 days); use gpt-6-luna instead",
    );
    expect(retirementWarning("o4-mini", on("2026-11-29"))).toBe(
      "o4-mini was shut down on 2026-10-23; use gpt-5.6-terra instead",
    );
    expect(retirementWarning("gemini-2.5-pro", on("2026-11-29"))).toBe(
      "gemini-2.5-pro shuts down on 2026-12-01 (in 2 days); use gemini-3.8-flash instead",
    );
    expect(retirementWarning("claude-sonnet-5-5", on("2026-11-26"))).toBeUndefined();
    expect(retirementWarning("not-in-the-catalog", on("2026-11-26"))).toBeUndefined();
  });
});

describe("the Anthropic SDK's own list", () => {
  test("its end-of-life days are read from the installed SDK and parsed", () => {
    expect(sdkDay("November 30th, 2026")).toBe("2026-11-30");
    expect(sdkDay("June 1st, 2027")).toBe("2027-06-01");
    expect(sdkDay("soon")).toBeUndefined();
    const parsed = parseDeprecatedModels(
      "exports.DEPRECATED_MODELS = {\n    'claude-opus-4-5': 'January 22nd, 2027',\n};",
    );
    expect([...parsed]).toEqual([["claude-opus-4-5", "2027-01-22"]]);
    // The installed SDK (1.14) lists claude-sonnet-4-5, claude-mythos-preview and claude-opus-4-5.
    expect(anthropicSdkDeprecations().get("claude-sonnet-4-5")).toBe("2026-11-30");
    expect(anthropicSdkDeprecations().get("claude-opus-4-5")).toBe("2027-01-22");
    // An id only the SDK knows still gets the notice.
    expect(retirementWarning("claude-mythos-preview", on("2026-11-29"))).toBe(
      "claude-mythos-preview was shut down on 2026-06-30",
    );
  });
});

test("the shipped list is the installed SDK's (after an SDK upgrade: bun scripts/catalog-merged.ts)", () => {
  expect(installedSdkDeprecations().size).toBeGreaterThan(0);
  expect([...anthropicSdkDeprecations()].sort()).toEqual([...installedSdkDeprecations()].sort());
});

describe("the client announces a retired model once", () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(async () => {
    await server.close();
  });

  test("a model_retiring warning before the first stream of that model, not the second", async () => {
    const client = await createModelClient({
      env: { OPENAI_API_KEY: TEST_KEYS.openai, OPENAI_BASE_URL: server.openaiBaseUrl },
      workspaceRoot: process.cwd(),
      retry: { maxRetries: 0 },
    });
    const request = makeRequest("openai", "gpt-4o-2024-05-13", [{ role: "user", content: "hi" }], {
      tools: [],
    });
    server.enqueue(
      { protocol: "openai-responses", text: "one" },
      { protocol: "openai-responses", text: "two" },
    );
    const first = await collect(client.stream(request));
    const second = await collect(client.stream(request));
    expect(first.events[0]).toEqual({
      type: "warning",
      code: "model_retiring",
      message: "gpt-4o-2024-05-13 was shut down on 2026-10-23; use gpt-5.6-sol instead",
    });
    expect(first.text).toBe("one");
    expect(second.events.some((e) => e.type === "warning")).toBe(false);
  });
});

describe("unlistedCatalogModels (agent models --check)", () => {
  test("flags live catalog models the provider no longer lists, under any of their names", () => {
    const entries = catalogEntries().filter((e) => e.provider === "anthropic");
    const listed = entries
      .map((e) => e.id)
      .filter((id) => id !== "claude-opus-5-5" && id !== "claude-sonnet-4-5");
    listed.push("claude-sonnet-4-5-20250929");
    const flagged = unlistedCatalogModels(entries, "anthropic", listed, on("2026-11-26"));
    expect(flagged.map((f) => f.id)).toEqual(["claude-opus-5-5"]);
    expect(flagged[0]?.note).toContain("not listed by anthropic");
    // After its shutdown a retired model missing from the list is expected, not flagged.
    const later = unlistedCatalogModels(entries, "anthropic", listed.slice(0, -1), on("2026-12-01"));
    expect(later.map((f) => f.id)).toEqual(["claude-opus-5-5"]);
  });
});
