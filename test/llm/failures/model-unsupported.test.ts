/**
 * "This model cannot serve this request" (unknown model, unsupported parameter or tool combination) is its
 * own error kind, classified from each provider's real error bodies through the real SDKs, and moves a
 * request to the tier's next candidate before any output.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ProviderKind, ProviderNotice } from "../../../src/kernel/index.ts";
import { createModelClient } from "../../../src/llm/client.ts";
import { kindForStatus } from "../../../src/llm/errors.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, expectError, makeRequest, streamFor, TEST_KEYS } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

/** Real error bodies, each with where it was reported. */
const CASES: {
  name: string;
  kind: ProviderKind;
  model: string;
  status: number;
  body: unknown;
  /** The fake server's own rules already refuse this request with this body (fake-rules-openai.ts),
   * so no turn is scripted: a scripted one would be left over for the next test. */
  refusedByFake?: boolean;
}[] = [
  {
    // github.com/openai/openai-agents-python/issues/458
    name: "OpenAI model_not_found",
    kind: "openai",
    model: "computer-use-preview-2025-03-11",
    status: 404,
    body: {
      error: {
        message:
          "The model `computer-use-preview-2025-03-11` does not exist or you do not have access to it.",
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
      },
    },
  },
  {
    // github.com/appatalks/eva-agent/issues/83
    name: "OpenAI unsupported_parameter",
    kind: "openai",
    model: "o3-mini",
    status: 400,
    body: {
      error: {
        message: "Unsupported parameter: 'temperature' is not supported with this model.",
        type: "invalid_request_error",
        param: "temperature",
        code: "unsupported_parameter",
      },
    },
  },
  {
    // issue 7: function tools on Chat Completions with a reasoning model
    name: "OpenAI function tools with reasoning_effort on Chat Completions",
    kind: "openai",
    model: "gpt-6-astra",
    refusedByFake: true,
    status: 400,
    body: {
      error: {
        message:
          "Function tools with reasoning_effort are not supported for gpt-6-astra in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.",
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    },
  },
  {
    // github.com/mattermost/mattermost-plugin-agents/issues/257
    name: "Anthropic not_found_error for a model",
    kind: "anthropic",
    model: "claude-3-5-sonnet-20241022",
    status: 404,
    body: { type: "error", error: { type: "not_found_error", message: "model: claude-3-5-sonnet-20241022" } },
  },
  {
    // github.com/continuedev/continue/issues/9939
    name: "Gemini model not found",
    kind: "gemini",
    model: "gemini-pro",
    status: 404,
    body: {
      error: {
        code: 404,
        message:
          "models/gemini-pro is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.",
        status: "NOT_FOUND",
      },
    },
  },
];

describe("model_unsupported classification", () => {
  for (const c of CASES) {
    test(`${c.name} through the real SDK is model_unsupported, naming provider and model`, async () => {
      if (!c.refusedByFake) server.enqueue({ status: c.status, errorBody: c.body });
      const result = await collect(
        streamFor(server, c.kind)(makeRequest(c.kind, c.model, [{ role: "user", content: "hi" }])),
      );
      const { error } = expectError(result);
      expect(error.kind).toBe("model_unsupported");
      expect(error.status).toBe(c.status);
      expect(server.pending()).toBe(0);
      expect(error.message).toContain(c.model);
    });
  }

  test("other 400 and 404 bodies stay bad_request", () => {
    expect(kindForStatus(400, { error: { message: "messages: field required" } })).toBe("bad_request");
    expect(kindForStatus(404, "fake-llm-server: no route for GET /v2/x")).toBe("bad_request");
    expect(kindForStatus(500, "model_not_found")).toBe("server");
  });
});

describe("fallback on model_unsupported", () => {
  const env = {
    ANTHROPIC_API_KEY: TEST_KEYS.anthropic,
    GEMINI_API_KEY: TEST_KEYS.gemini,
  };
  const config = { models: { fast: ["anthropic:claude-retired-1", "gemini:gemini-3.8-flash"] } };

  function client(fallback?: boolean, notices: ProviderNotice[] = []) {
    return createModelClient({
      env: {
        ...env,
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
        GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl,
      },
      config,
      workspaceRoot: "/tmp",
      onNotice: (n) => notices.push(n),
      ...(fallback === undefined ? {} : { fallback }),
    });
  }

  test("a model the first provider no longer serves moves to the next candidate on another provider", async () => {
    const notices: ProviderNotice[] = [];
    const c = await client(undefined, notices);
    const ref = c.resolve("fast").ref;
    server.enqueue(
      {
        status: 404,
        errorBody: {
          type: "error",
          error: { type: "not_found_error", message: "model: claude-retired-1" },
        },
      },
      { text: "from gemini", protocol: "gemini" },
    );
    const before = server.requests.length;
    const result = await collect(
      c.stream(makeRequest("anthropic", ref.id, [{ role: "user", content: "hi" }], { model: ref })),
    );
    expect(expectDone(result).message.parts).toEqual([{ type: "text", text: "from gemini" }]);
    expect(server.requests.slice(before).map((r) => `${r.protocol}:${r.model}`)).toEqual([
      "anthropic:claude-retired-1",
      "gemini:gemini-3.8-flash",
    ]);
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice?.type).toBe("fallback");
    if (notice?.type !== "fallback") return;
    expect(notice.error.kind).toBe("model_unsupported");
    expect(notice.to.id).toBe("gemini-3.8-flash");
  });

  test("fallback: false keeps the run on the first candidate", async () => {
    const c = await client(false);
    const ref = c.resolve("fast").ref;
    expect(ref.fallbacks).toBeUndefined();
    server.enqueue({
      status: 404,
      errorBody: { type: "error", error: { type: "not_found_error", message: "model: claude-retired-1" } },
    });
    const before = server.requests.length;
    const result = await collect(
      c.stream(makeRequest("anthropic", ref.id, [{ role: "user", content: "hi" }], { model: ref })),
    );
    expect(expectError(result).error.kind).toBe("model_unsupported");
    expect(server.requests.length - before).toBe(1);
  });
});
