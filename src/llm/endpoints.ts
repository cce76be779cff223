/**
 * Which provider endpoints this environment can reach: keys and base URLs from the usual variables,
 * plus openai-compatible servers (Ollama, LM Studio, vLLM, ...) declared in config, and a local Ollama
 * (`ollama`, ollama-host.ts) that needs no config.
 * Holds key values only to hand them to the provider client; listings show variable names, never values.
 */
import { AppError, type ProviderKind, type ReasoningEffort } from "../kernel/index.ts";
import { ollamaBaseUrl } from "./local/ollama-host.ts";

export type Env = Record<string, string | undefined>;

/** An openai-compatible server declared in config (`providers.<name>`). */
export interface CompatibleProviderConfig {
  kind: "openai-compatible";
  baseUrl: string;
  /** The variable holding its key; servers without auth need none. */
  apiKeyEnv?: string;
  /** Send reasoning back as `reasoning_content` on assistant turns (DeepSeek-style servers). */
  sendReasoningContent?: boolean;
}

/** The part of the user config model resolution reads. */
export interface ModelsConfig {
  /** Tier overrides: each an ordered list of model specs (`provider:model` or ids). */
  models?: Partial<Record<"fast" | "good" | "best", string[]>>;
  providers?: Record<string, CompatibleProviderConfig>;
  /** Reasoning effort per tier (`reasoning_effort:` in config.yaml); each adapter maps it to a value
   * the chosen model accepts. */
  reasoningEffort?: Partial<Record<"fast" | "good" | "best", ReasoningEffort>>;
}

/** One provider instance and whether it can be called. */
export interface Endpoint {
  /** Instance name: "anthropic", "openai", "gemini", or a config name ("ollama"). */
  name: string;
  kind: ProviderKind;
  /** Variables that may hold the key, in the order they are read. Empty for keyless servers. */
  keyVars: string[];
  /** The variable the key came from, when one was found. */
  keyVar?: string;
  apiKey?: string;
  baseUrlVar?: string;
  baseUrl?: string;
  /** True when the endpoint can be called: a key was found, or the server needs none. */
  ready: boolean;
  /** Declared in config (openai-compatible). */
  compatible: boolean;
  /** See CompatibleProviderConfig.sendReasoningContent. */
  sendReasoningContent?: boolean;
}

/** The three native providers, in the preferred order (DESIGN: Anthropic, OpenAI, Gemini). */
export const NATIVE_PROVIDERS: readonly { name: ProviderKind; keyVars: string[]; baseUrlVar: string }[] = [
  { name: "anthropic", keyVars: ["ANTHROPIC_API_KEY"], baseUrlVar: "ANTHROPIC_BASE_URL" },
  { name: "openai", keyVars: ["OPENAI_API_KEY"], baseUrlVar: "OPENAI_BASE_URL" },
  { name: "gemini", keyVars: ["GEMINI_API_KEY", "GOOGLE_API_KEY"], baseUrlVar: "GOOGLE_GEMINI_BASE_URL" },
];

/** Provider prefixes accepted in `provider:model` besides config names. */
export const PROVIDER_PREFIXES: Readonly<Record<string, ProviderKind>> = {
  anthropic: "anthropic",
  openai: "openai",
  gemini: "gemini",
  google: "gemini",
};

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value : undefined;
}

/**
 * A base URL variable's value as the SDKs need it: an absolute http(s) URL. The SDKs read the variable
 * themselves (@anthropic-ai/sdk 1.12 src/client.ts: `baseURL = readEnv('ANTHROPIC_BASE_URL')`; openai
 * src/client.ts the same for OPENAI_BASE_URL) and build each request's URL as `new URL(baseURL + path)`
 * (src/client.ts buildURL), which throws "Invalid URL" for `127.0.0.1:8080`: every request would fail as
 * a provider error. Such a value is refused at start instead, naming the variable.
 */
function checkedBaseUrl(variable: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url !== undefined && (url.protocol === "http:" || url.protocol === "https:")) return value;
  const host = /^[A-Za-z0-9.[\]:-]+(\/.*)?$/.test(value) ? ` (with its scheme: http://${value})` : "";
  throw new AppError(
    "config",
    `${variable} is "${value}", which is not an http(s) URL; set it to the server's URL${host}, or unset it`,
  );
}

/** Throws AppError("config") naming the first base URL variable in `env` that is set but no http(s) URL. */
export function checkBaseUrlVars(env: Env): void {
  for (const native of NATIVE_PROVIDERS) {
    const set = nonEmpty(env[native.baseUrlVar]);
    if (set !== undefined) checkedBaseUrl(native.baseUrlVar, set.trim());
  }
}

/** Every endpoint: the three native providers first, then config-declared compatible servers. */
export function listEndpoints(env: Env, config: ModelsConfig = {}): Endpoint[] {
  const endpoints: Endpoint[] = [];
  for (const native of NATIVE_PROVIDERS) {
    const keyVar = native.keyVars.find((v) => nonEmpty(env[v]) !== undefined);
    const set = nonEmpty(env[native.baseUrlVar]);
    const baseUrl = set === undefined ? undefined : checkedBaseUrl(native.baseUrlVar, set.trim());
    const endpoint: Endpoint = {
      name: native.name,
      kind: native.name,
      keyVars: [...native.keyVars],
      baseUrlVar: native.baseUrlVar,
      ready: keyVar !== undefined,
      compatible: false,
    };
    if (keyVar !== undefined) {
      endpoint.keyVar = keyVar;
      endpoint.apiKey = env[keyVar];
    }
    if (baseUrl !== undefined) endpoint.baseUrl = baseUrl;
    endpoints.push(endpoint);
  }
  for (const [name, provider] of Object.entries(config.providers ?? {})) {
    const keyVars = provider.apiKeyEnv ? [provider.apiKeyEnv] : [];
    const apiKey = provider.apiKeyEnv ? nonEmpty(env[provider.apiKeyEnv]) : undefined;
    const endpoint: Endpoint = {
      name,
      kind: "openai",
      keyVars,
      baseUrl: provider.baseUrl,
      // A server with a declared key variable needs that key; one without needs none.
      ready: provider.apiKeyEnv === undefined || apiKey !== undefined,
      compatible: true,
    };
    if (provider.sendReasoningContent) endpoint.sendReasoningContent = true;
    if (apiKey !== undefined && provider.apiKeyEnv) {
      endpoint.keyVar = provider.apiKeyEnv;
      endpoint.apiKey = apiKey;
    }
    endpoints.push(endpoint);
  }
  // A local Ollama works without config (`ollama:MODEL`); a config entry named ollama replaces it.
  if (!endpoints.some((e) => e.name === "ollama")) {
    endpoints.push({
      name: "ollama",
      kind: "openai",
      keyVars: [],
      baseUrlVar: "OLLAMA_HOST",
      baseUrl: ollamaBaseUrl(env.OLLAMA_HOST),
      ready: true,
      compatible: true,
    });
  }
  return endpoints;
}

/** The endpoint called `name` (provider prefixes such as `google` map to their native name). */
export function findEndpoint(endpoints: Endpoint[], name: string): Endpoint | undefined {
  const native = PROVIDER_PREFIXES[name.toLowerCase()];
  const wanted = native ?? name;
  return endpoints.find((e) => e.name === wanted);
}

/** "ANTHROPIC_API_KEY" or "GEMINI_API_KEY or GOOGLE_API_KEY": what to set for an endpoint. */
export function keyVarsText(endpoint: Endpoint): string {
  return endpoint.keyVars.join(" or ");
}
