/**
 * The model-list endpoints of the fake server, in each provider's real response shape, so
 * `agent models --check` runs the real SDKs' list methods offline:
 *   Anthropic  GET /v1/models      (told apart from OpenAI by its `anthropic-version` header)
 *              `{data: [ModelInfo], has_more, first_id, last_id}`; ModelInfo has `id`, `type: "model"`,
 *              `display_name`, `created_at`, `lifecycle`, `deprecated_at`, `retires_at`, ...
 *              (node_modules/@anthropic-ai/sdk/resources/models.d.ts)
 *   OpenAI     GET /v1/models      `{object: "list", data: [{id, object: "model", created, owned_by}]}`
 *              (node_modules/openai/resources/models.d.ts)
 *   Gemini     GET /v1beta/models  `{models: [{name: "models/<id>", ...}]}` without `nextPageToken` (one page)
 *              (node_modules/@google/genai/dist/genai.d.ts `ListModelsResponse`)
 * Every list is one page: the SDKs stop paging on `has_more: false` / no `nextPageToken`.
 */
import { errorBody, type FakeProtocol } from "./fake-llm-frames.ts";

/** A listed model: an id, or an id with an Anthropic lifecycle stage. */
export type FakeModel =
  | string
  | { id: string; lifecycle?: "active" | "deprecated" | "retired"; retiresAt?: string };

/** What a list endpoint answers: models, or an error status. */
export type FakeModelList = FakeModel[] | { status: number; message?: string };

/** The protocol a GET request lists models for, or null when it is no model-list request. */
export function modelListRoute(path: string, headers: Headers): FakeProtocol | null {
  if (path === "/v1/models") return headers.has("anthropic-version") ? "anthropic" : "openai";
  if (path === "/v1beta/models") return "gemini";
  return null;
}

function entry(model: FakeModel): { id: string; lifecycle: string; retiresAt: string | null } {
  return typeof model === "string"
    ? { id: model, lifecycle: "active", retiresAt: null }
    : { id: model.id, lifecycle: model.lifecycle ?? "active", retiresAt: model.retiresAt ?? null };
}

function body(protocol: FakeProtocol, models: FakeModel[]): unknown {
  const entries = models.map(entry);
  switch (protocol) {
    case "anthropic":
      return {
        data: entries.map((m) => ({
          id: m.id,
          type: "model",
          display_name: m.id,
          created_at: "2026-01-01T00:00:00Z",
          capabilities: null,
          lifecycle: m.lifecycle,
          deprecated_at: m.lifecycle === "active" ? null : "2026-10-01T00:00:00Z",
          retires_at: m.retiresAt,
          line: null,
          max_input_tokens: null,
          max_tokens: null,
        })),
        has_more: false,
        first_id: entries[0]?.id ?? null,
        last_id: entries.at(-1)?.id ?? null,
      };
    case "openai":
      return {
        object: "list",
        data: entries.map((m) => ({ id: m.id, object: "model", created: 1_700_000_000, owned_by: "system" })),
      };
    case "gemini":
      return {
        models: entries.map((m) => ({
          name: `models/${m.id}`,
          displayName: m.id,
          supportedGenerationMethods: ["generateContent", "countTokens"],
        })),
      };
  }
}

/** The response of a model-list request. */
export function modelListResponse(protocol: FakeProtocol, list: FakeModelList | undefined): Response {
  const headers = { "content-type": "application/json" };
  if (list !== undefined && !Array.isArray(list)) {
    const error = errorBody(protocol, list.status, list.message ?? `fake error ${list.status}`);
    return new Response(JSON.stringify(error), { status: list.status, headers });
  }
  return new Response(JSON.stringify(body(protocol, list ?? [])), { status: 200, headers });
}
