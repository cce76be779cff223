/**
 * The models a provider serves right now, through each SDK's own list method (for `agent models --check`):
 * - Anthropic `client.models.list()` (`GET /v1/models`, paged by the SDK; `lifecycle` and `retires_at` per
 *   model: node_modules/@anthropic-ai/sdk/resources/models.d.ts; the default list holds active and
 *   deprecated models, retired ones only on request; `limit` 1 to 1000, docs.anthropic.com/en/api/models-list);
 * - OpenAI `client.models.list()` (`GET /v1/models`; node_modules/openai/resources/models.d.ts), also for
 *   openai-compatible servers (Ollama, vLLM, LM Studio serve the same endpoint);
 * - Gemini `ai.models.list()` (`GET /v1beta/models`, names `models/<id>`; node_modules/@google/genai
 *   `Models.list`, a Pager; at most 1000 per page, ai.google.dev/api/rest/v1beta/models/list).
 * Imports each SDK only when its provider is listed. Never throws: a failure is a classified ProviderError.
 */
import type { ProviderError } from "../kernel/errors.ts";
import type { Endpoint } from "./endpoints.ts";
import { classifyError } from "./errors.ts";

/** One model the provider lists. */
export interface LiveModel {
  id: string;
  /** Anthropic reports a lifecycle stage; other providers list only what they serve. */
  lifecycle?: "active" | "deprecated" | "retired";
  /** Anthropic's scheduled retirement date (RFC 3339), when one is set. */
  retiresAt?: string;
}

export type LiveModels = { ok: true; models: LiveModel[] } | { ok: false; error: ProviderError };

// Each provider's SDK loads only when that provider's models are listed.
async function anthropicModels(endpoint: Endpoint): Promise<LiveModel[]> {
  const { default: Sdk } = await import("@anthropic-ai/sdk");
  const client = new Sdk({
    apiKey: endpoint.apiKey ?? "",
    authToken: null,
    maxRetries: 0,
    ...(endpoint.baseUrl ? { baseURL: endpoint.baseUrl } : {}),
  });
  const out: LiveModel[] = [];
  for await (const model of client.models.list({ limit: 1000 })) {
    out.push({
      id: model.id,
      ...(model.lifecycle ? { lifecycle: model.lifecycle } : {}),
      ...(model.retires_at ? { retiresAt: model.retires_at } : {}),
    });
  }
  return out;
}

async function openaiModels(endpoint: Endpoint): Promise<LiveModel[]> {
  const { default: Sdk } = await import("openai");
  const client = new Sdk({
    apiKey: endpoint.apiKey ?? "none",
    maxRetries: 0,
    ...(endpoint.baseUrl ? { baseURL: endpoint.baseUrl } : {}),
  });
  const out: LiveModel[] = [];
  for await (const model of client.models.list()) out.push({ id: model.id });
  return out;
}

async function geminiModels(endpoint: Endpoint): Promise<LiveModel[]> {
  const { GoogleGenAI: Sdk } = await import("@google/genai");
  const client = new Sdk({
    apiKey: endpoint.apiKey ?? "",
    vertexai: false,
    httpOptions: { apiVersion: "v1beta", ...(endpoint.baseUrl ? { baseUrl: endpoint.baseUrl } : {}) },
  });
  const out: LiveModel[] = [];
  for await (const model of await client.models.list({ config: { pageSize: 1000 } })) {
    if (model.name) out.push({ id: model.name.replace(/^models\//, "") });
  }
  return out;
}

/** Lists what an endpoint serves now. */
export async function listLiveModels(endpoint: Endpoint): Promise<LiveModels> {
  try {
    const models =
      endpoint.kind === "anthropic"
        ? await anthropicModels(endpoint)
        : endpoint.kind === "openai"
          ? await openaiModels(endpoint)
          : await geminiModels(endpoint);
    return { ok: true, models };
  } catch (error) {
    const ctx = { provider: endpoint.kind, providerName: endpoint.name, model: "(model list)" };
    return {
      ok: false,
      error: classifyError(endpoint.apiKey ? { ...ctx, apiKey: endpoint.apiKey } : ctx, error),
    };
  }
}
