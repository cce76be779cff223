/**
 * The one composition of the provider layer that the CLI and the agent runner use:
 *
 *   record?( fallback( retry( provider stream per candidate ) ) )     or     replay(cassette)
 *
 * Lazy: nothing here imports an SDK or even the adapters until the first model call, and the cassette
 * code (and node:crypto with it) loads only under --record or --replay, so commands that never call a
 * model, and a one-shot that calls one, start cheap (docs/benchmarks.md "Start-up").
 */
import type {
  ModelInfo,
  ModelRef,
  ModelRequest,
  ProviderNotice,
  StreamEvent,
  StreamFn,
  Usage,
} from "../kernel/index.ts";
import { AppError } from "../kernel/index.ts";
import { Redactor } from "../kernel/text/redact.ts";
import type { Replay } from "./cassette/cassette.ts";
import { costOf, estimatedPriceNotice, modelInfo, retirementWarning } from "./catalog.ts";
import { type Endpoint, type Env, findEndpoint, listEndpoints, type ModelsConfig } from "./endpoints.ts";
import { withFallback } from "./fallback.ts";
import type { ProviderConfig } from "./providers.ts";
import { type ResolvedModel, resolveModel } from "./resolve.ts";
import { ALLOW_RETIRED_VAR, retiredRefusal } from "./retired-guard.ts";
import type { RetryOptions } from "./retry.ts";

export interface ModelClientOptions {
  env: Env;
  config?: ModelsConfig;
  /** Retries and fallbacks, reported outside the stream (e.g. to stderr or as run events). */
  onNotice?: (notice: ProviderNotice) => void;
  /** Cassette to write every exchange to. */
  record?: string;
  /** Cassette to serve exchanges from: no key and no network needed. */
  replay?: string;
  /** Serve the cassette even when requests differ from the recorded ones (`--replay-loose`). */
  replayLoose?: boolean;
  /** Workspace root, stored as `${WORKSPACE}` in cassettes. */
  workspaceRoot: string;
  /**
   * False keeps every run on the model it resolved to: no fallback to the tier's next candidate
   * (`--no-fallback`, config `defaults.fallback: false`). Default true.
   */
  fallback?: boolean;
  /** Retry tuning passed to withRetry (tests shorten the delays). */
  retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number; maxIdleRetries?: number };
  /**
   * How long a provider may stay silent (before its first event or between two) before the request
   * fails with idle_timeout; silence is not retried by default, so this is the bound on a silent
   * provider. Default: `AGENT_IDLE_TIMEOUT_MS` from `env`, else 60 s (stream-guard.ts).
   */
  idleTimeoutMs?: number;
}

/** The variable that sets the provider idle limit in milliseconds (a positive integer). */
export const IDLE_TIMEOUT_VAR = "AGENT_IDLE_TIMEOUT_MS";

/** The idle limit from the options or the environment; AppError("config") for a malformed variable. */
export function idleTimeoutFrom(
  options: Pick<ModelClientOptions, "env" | "idleTimeoutMs">,
): number | undefined {
  if (options.idleTimeoutMs !== undefined) return options.idleTimeoutMs;
  const raw = options.env[IDLE_TIMEOUT_VAR];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new AppError("config", `${IDLE_TIMEOUT_VAR}=${raw}: expected a positive number of milliseconds`, {
      field: IDLE_TIMEOUT_VAR,
    });
  }
  return value;
}

export interface ModelClient {
  /** The composed stream function. Never throws once called. */
  stream: StreamFn;
  /** Resolves a tier, `provider:model` or id (credentials are not required when replaying). */
  resolve(name: string, options?: { nameErrorKind?: "usage" | "config" | "spec" }): ResolvedModel;
  /** Catalog facts for a ref (openai-compatible servers are free and unknown; a replay costs nothing). */
  info(ref: ModelRef): ModelInfo;
  /**
   * What `usage` by the model with this id cost this process, for what counts as the run goes (the live
   * status line, the progress summary, traces): the same prices as {@link info}, so a replay's live cost
   * is 0 as its final one is (docs/sessions-and-replay.md: "A replayed run costs nothing").
   */
  costOf(model: string, usage: Usage): number;
  /** Set when replaying: the first mismatched request and the recorded cost of what was served. */
  replay?: Pick<Replay, "misfit" | "recordedCostUsd">;
  /** Set when recording: the first cassette write that failed (AppError "state", exit 3). */
  record?: { failure(): AppError | undefined };
}

function missingEndpointStream(ref: ModelRef): StreamFn {
  return async function* missing(): AsyncGenerator<StreamEvent> {
    yield {
      type: "error",
      error: {
        kind: "auth",
        message: `no credentials for provider ${ref.providerName} (model ${ref.id})`,
        provider: ref.provider,
        model: ref.id,
      },
    };
  };
}

/** A stream function for one endpoint, importing the adapter (and through it the SDK) on first use. */
function lazyEndpointStream(
  endpoint: Endpoint,
  options: ModelClientOptions,
  idleTimeoutMs: number | undefined,
): StreamFn {
  let loaded: Promise<StreamFn> | undefined;
  const load = async (): Promise<StreamFn> => {
    const [{ createProviderStream }, { withRetry }, { isLoopbackUrl, refusedHint, withRefusedHint }] =
      await Promise.all([
        import("./providers.ts"),
        import("./retry.ts"),
        import("./local/local-endpoint.ts"),
      ]);
    const config: ProviderConfig = {
      kind: endpoint.kind,
      name: endpoint.name,
      apiKey: endpoint.apiKey ?? "none",
    };
    if (endpoint.baseUrl) config.baseUrl = endpoint.baseUrl;
    if (endpoint.compatible) config.compatible = true;
    if (endpoint.sendReasoningContent) config.sendReasoningContent = true;
    // The built-in `ollama:` endpoint, or a config provider named ollama that replaces it, is Ollama.
    if (endpoint.compatible && endpoint.name === "ollama") config.server = "ollama";
    if (idleTimeoutMs !== undefined) config.idleTimeoutMs = idleTimeoutMs;
    let base = createProviderStream(config);
    const retryOptions: RetryOptions = options.onNotice
      ? { ...options.retry, onNotice: options.onNotice }
      : { ...options.retry };
    // A local server that refuses the connection is not running: one retry (it may be starting), then
    // an error that says what to start. Ollama is named at whatever OLLAMA_HOST says.
    const local = isLoopbackUrl(endpoint.baseUrl);
    if (endpoint.baseUrl && (local || endpoint.name === "ollama")) {
      base = withRefusedHint(base, refusedHint(endpoint.name, endpoint.baseUrl));
    }
    if (local) retryOptions.maxRefusedRetries = 1;
    return withRetry(base, retryOptions);
  };
  return async function* endpointStream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    loaded ??= load();
    let stream: StreamFn;
    try {
      stream = await loaded;
    } catch (error) {
      yield {
        type: "error",
        error: {
          kind: "unknown",
          message: `cannot load the ${endpoint.kind} adapter: ${(error as Error).message}`,
          provider: request.model.provider,
          model: request.model.id,
        },
      };
      return;
    }
    yield* stream(request);
  };
}

/**
 * Announces, once per model and client, before its first stream (outside retries and fallback, which
 * only retry while nothing was emitted): a retiring model as a `model_retiring` warning, and a model
 * whose price is not known as a `price_unknown` warning naming the conservative price it is counted at.
 */
function announcing(stream: StreamFn, info: (ref: ModelRef) => ModelInfo): StreamFn {
  const announced = new Set<string>();
  return async function* announcingStream(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const id = request.model.id;
    if (!announced.has(id)) {
      announced.add(id);
      const message = retirementWarning(id);
      if (message) yield { type: "warning", code: "model_retiring", message };
      if (info(request.model).priceEstimated)
        yield { type: "warning", code: "price_unknown", message: estimatedPriceNotice(id) };
    }
    yield* stream(request);
  };
}

/** What the agent loop needs of a client: its stream, model resolution and catalog facts. */
export function modelDeps(client: ModelClient): {
  stream: StreamFn;
  resolveModel: (name: string) => ModelRef;
  modelInfo: (ref: ModelRef) => ModelInfo;
} {
  return {
    stream: client.stream,
    resolveModel: (name) => client.resolve(name).ref,
    modelInfo: (ref) => client.info(ref),
  };
}

/** Composes provider streams, retries, fallbacks and record/replay for one process. Rejects with
 * AppError("usage") for record plus replay, or a replay cassette that cannot be read. */
export async function createModelClient(options: ModelClientOptions): Promise<ModelClient> {
  if (options.record !== undefined && options.replay !== undefined) {
    throw new AppError("usage", "--record and --replay cannot be used together");
  }
  const endpoints = listEndpoints(options.env, options.config);
  const idleTimeoutMs = idleTimeoutFrom(options);
  const replaying = options.replay !== undefined;
  const cache = new Map<string, StreamFn>();

  const streamFor = (ref: ModelRef): StreamFn => {
    const cached = cache.get(ref.providerName);
    if (cached) return cached;
    const endpoint = findEndpoint(endpoints, ref.providerName);
    const stream = endpoint?.ready
      ? lazyEndpointStream(endpoint, options, idleTimeoutMs)
      : missingEndpointStream(ref);
    cache.set(ref.providerName, stream);
    return stream;
  };

  let stream: StreamFn;
  let replay: Replay | undefined;
  let recording: { failure(): AppError | undefined } | undefined;
  if (options.replay !== undefined) {
    // Cassettes load only with --replay or --record.
    const { replayStream } = await import("./cassette/cassette.ts");
    replay = replayStream(options.replay, {
      workspaceRoot: options.workspaceRoot,
      ...(options.replayLoose ? { loose: true } : {}),
    });
    stream = replay.stream;
  } else {
    stream = withFallback(streamFor, options.onNotice);
    if (options.record !== undefined) {
      const { recordingStream } = await import("./cassette/cassette.ts");
      const recorder = recordingStream(stream, options.record, {
        workspaceRoot: options.workspaceRoot,
        redactor: Redactor.fromEnv(options.env),
      });
      stream = recorder;
      recording = recorder;
    }
  }

  const info = (ref: ModelRef): ModelInfo => {
    const endpoint = findEndpoint(endpoints, ref.providerName);
    const found = modelInfo(ref.id, ref.provider, { free: endpoint?.compatible === true });
    // A replayed run calls no provider, so it costs nothing; the recorded cost is reported apart.
    if (replaying) {
      found.price = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      delete found.priceEstimated;
    }
    return found;
  };
  stream = announcing(stream, info);
  // A model past its shutdown is not sent unless the user says so (docs/models.md "Retired models").
  const allowRetired = options.env[ALLOW_RETIRED_VAR] === "1" || replaying;

  return {
    stream,
    resolve(name, resolveOptions = {}) {
      const resolved = resolveModel(name, {
        env: options.env,
        config: options.config ?? {},
        requireCredentials: !replaying,
        ...resolveOptions,
      });
      if (!allowRetired) {
        const refusal = retiredRefusal(resolved.ref);
        if (refusal) throw refusal;
        if (resolved.ref.fallbacks)
          resolved.ref.fallbacks = resolved.ref.fallbacks.filter((f) => !retiredRefusal(f));
      }
      if (options.fallback === false) delete resolved.ref.fallbacks;
      return resolved;
    },
    info,
    costOf: (model, usage) => (replaying ? 0 : costOf(usage, modelInfo(model))),
    ...(replay ? { replay } : {}),
    ...(recording ? { record: recording } : {}),
  };
}
