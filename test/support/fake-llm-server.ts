/**
 * The project's fake LLM server: one HTTP server on 127.0.0.1 (random port) that speaks the three wire
 * protocols the official SDKs use, so tests run the real SDKs against scripted replies.
 *
 * Paths:
 *   Anthropic  POST /v1/messages                                         (SSE, `event: <type>` lines)
 *   OpenAI     POST /v1/chat/completions                                 (SSE `data:` chunks, usage chunk, `[DONE]`)
 *   OpenAI     POST /v1/responses                                        (SSE `event:` + `data:`, fake-frames-responses.ts)
 *   Gemini     POST /v1beta/models/<model>:streamGenerateContent?alt=sse (SSE `data:` chunks)
 *   Model lists: GET /v1/models (Anthropic or OpenAI), GET /v1beta/models (Gemini); see fake-model-list.ts
 *
 * API:
 *   const server = await startFakeLlmServer();
 *   server.anthropicBaseUrl  // ANTHROPIC_BASE_URL / Anthropic SDK baseURL
 *   server.openaiBaseUrl     // OPENAI_BASE_URL / OpenAI SDK baseURL (ends in /v1)
 *   server.geminiBaseUrl     // GOOGLE_GEMINI_BASE_URL / @google/genai httpOptions.baseUrl
 *   server.enqueue({ text: ["Hel", "lo"] }, { toolCalls: [{ name: "read_file", args: { path: "a" }, fragments: 3 }] });
 *   server.requests          // every request: protocol, path, headers, parsed JSON body, model
 *   server.settings.ollama = { thinkingModels: ["qwen3"] }  // switches: fake-rules.ts FakeServerSettings
 *   server.enqueueFor("name: editor-a", { text: "..." })  // turns for requests whose system prompt has that text
 *   server.clear()           // drops unserved turns (call after each test sharing a server)
 *   await server.close();
 *
 * Turns are answered in order whatever the protocol (see `FakeTurn` in fake-llm-frames.ts for every field:
 * text, reasoning, toolCalls, usage, stopReason, delayMs, chunkDelayMs, status + retryAfter + errorMessage,
 * cutAfterEvents, hangAfterEvents, rawEvents, rawSse, reasoningSignature, inputTransformations,
 * continuationToken, and for Responses refusal, phase, streamError). The response's model echoes the requested model. When the
 * queue is empty the server answers 400 with an error naming the request, so a test fails loudly instead of
 * hanging (400 is never retried). Requests the real API would refuse are refused first, with the real
 * status and error text (fake-rules.ts), without consuming a turn.
 *
 * Concurrent agents (parallel sub-agents) reach the server in an order no test controls, so their turns
 * can be routed: `enqueueFor(match, ...turns)` keeps a queue of its own for requests whose system prompt
 * (fake-system-prompt.ts) contains `match`; the first routed queue that matches and still has turns
 * answers, every other request takes from the main queue.
 *
 * CLI: `bun test/support/fake-llm-server.ts --script turns.json [--port N]` serves the turns of a JSON
 * array file, prints its URL on stdout and runs until killed.
 */
import {
  encodeTurn,
  errorBody,
  type FakeProtocol,
  type FakeToolCall,
  type FakeTurn,
  type FakeUsage,
} from "./fake-llm-frames.ts";
import { type FakeModelList, modelListResponse, modelListRoute } from "./fake-model-list.ts";
import { checkRules, type FakeServerSettings } from "./fake-rules.ts";
import { bindAnthropicTurn } from "./fake-rules-anthropic.ts";
import { systemPromptOf } from "./fake-system-prompt.ts";

export type { FakeProtocol, FakeToolCall, FakeTurn, FakeUsage };

/** A request the server received. */
export interface FakeRequest {
  protocol: FakeProtocol;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body (null when it was not JSON). */
  body: unknown;
  /** The requested model (from the body, or from the Gemini path). */
  model: string;
  /** `performance.now()` of the server when the request arrived (before its body was read). */
  receivedAt: number;
  /** `performance.now()` of the server once the whole response was handed to the connection (unset
   * until then, and for a response held open or cut). Benchmarks subtract the server's own time with it. */
  respondedAt?: number;
}

export interface FakeLlmServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  anthropicBaseUrl: string;
  openaiBaseUrl: string;
  geminiBaseUrl: string;
  /** Scripts the next turns, answered in order. */
  enqueue(...turns: FakeTurn[]): void;
  /**
   * Scripts turns only for requests whose system prompt contains `match` (one agent of several that run
   * at once), answered in order; those requests take from the main queue once these are used up.
   */
  enqueueFor(match: string, ...turns: FakeTurn[]): void;
  /** Turns not yet served (the main queue's and every routed one's). */
  pending(): number;
  /** What the protocol's model-list endpoint answers (fake-model-list.ts); an empty list until set. */
  serveModels(protocol: FakeProtocol, list: FakeModelList): void;
  /**
   * Serves `body` (a models.dev api.json fixture, or any JSON) at GET /api.json, or the status given,
   * for `refreshCatalog` tests (AGENT_MODELS_URL=`${url}/api.json`).
   */
  serveCatalog(body: unknown, status?: number): void;
  /** Drops every turn not yet served (a test's leftovers must never answer the next test). */
  clear(): void;
  /** Drops the connection of every response held open by `hangAfterEvents`. */
  dropHanging(): void;
  requests: FakeRequest[];
  /** Switches for the account or server the fake stands for (fake-rules.ts); a test sets them. */
  settings: FakeServerSettings;
  close(): Promise<void>;
}

const GEMINI_PATH = /^\/v1(?:beta)?\/models\/([^:]+):streamGenerateContent$/;

function route(path: string): { protocol: FakeProtocol; pathModel?: string } | null {
  if (path === "/v1/messages") return { protocol: "anthropic" };
  if (path === "/v1/chat/completions") return { protocol: "openai" };
  if (path === "/v1/responses") return { protocol: "openai-responses" };
  const gemini = GEMINI_PATH.exec(path);
  if (gemini?.[1]) return { protocol: "gemini", pathModel: decodeURIComponent(gemini[1]) };
  return null;
}

function errorResponse(protocol: FakeProtocol, turn: FakeTurn, status: number): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (turn.retryAfter !== undefined) headers["retry-after"] = String(turn.retryAfter);
  if (turn.retryAfterMs !== undefined) headers["retry-after-ms"] = String(turn.retryAfterMs);
  const body = turn.errorBody ?? errorBody(protocol, status, turn.errorMessage ?? `fake error ${status}`);
  return new Response(JSON.stringify(body), { status, headers });
}

function streamResponse(
  frames: string[],
  turn: FakeTurn,
  closed: Promise<void>,
  dropped: () => Promise<void>,
  onEnd: () => void,
): Response {
  const encoder = new TextEncoder();
  let sent = 0;
  let cancelled = false;
  let release = () => {};
  const cancelledPromise = new Promise<void>((resolve) => {
    release = resolve;
  });
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (turn.hangAfterEvents !== undefined && sent >= turn.hangAfterEvents) {
        await Promise.race([closed, cancelledPromise, dropped()]);
        if (!cancelled) controller.error();
        return;
      }
      if (turn.cutAfterEvents !== undefined && sent >= turn.cutAfterEvents) {
        // Let the frames already sent reach the client first, then drop the connection
        // (`error()` without an argument: Bun closes the socket without logging).
        if (sent > 0) await Bun.sleep(30);
        controller.error();
        return;
      }
      const frame = frames[sent];
      if (frame === undefined) {
        controller.close();
        onEnd();
        return;
      }
      if (turn.chunkDelayMs && sent > 0) await Bun.sleep(turn.chunkDelayMs);
      if (cancelled) return;
      controller.enqueue(encoder.encode(frame));
      sent++;
    },
    cancel() {
      cancelled = true;
      release();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** Starts a fake LLM server on 127.0.0.1 with a random port. */
export async function startFakeLlmServer(
  options: {
    port?: number;
    /** Called with each request once its body is parsed (a benchmark reads it, then drops the body). */
    onRequest?: (request: FakeRequest) => void;
  } = {},
): Promise<FakeLlmServer> {
  const queue: FakeTurn[] = [];
  const routed: { match: string; turns: FakeTurn[] }[] = [];
  /** The next turn for a request: from the first routed queue its system prompt matches, else the main one. */
  const nextTurn = (protocol: FakeProtocol, body: unknown): FakeTurn | undefined => {
    const system = routed.length > 0 ? systemPromptOf(protocol, body) : "";
    const own = routed.find((r) => r.turns.length > 0 && system.includes(r.match));
    return own ? own.turns.shift() : queue.shift();
  };
  const requests: FakeRequest[] = [];
  const modelLists: Partial<Record<FakeProtocol, FakeModelList>> = {};
  const settings: FakeServerSettings = {};
  let catalog = { text: JSON.stringify({ error: "no catalog served" }), status: 404 };
  // Hanging responses end abruptly when the test says so (dropHanging), e.g. once the client has shown
  // the output it was sent: a cut after output that cannot race the client's reads.
  let drop = () => {};
  let dropped = new Promise<void>((resolve) => {
    drop = resolve;
  });
  let markClosed = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    idleTimeout: 0,
    async fetch(req) {
      const receivedAt = performance.now();
      const url = new URL(req.url);
      if (req.method === "GET" && url.pathname === "/api.json") {
        return new Response(catalog.text, {
          status: catalog.status,
          headers: { "content-type": "application/json" },
        });
      }
      const listing = req.method === "GET" ? modelListRoute(url.pathname, req.headers) : null;
      if (listing) return modelListResponse(listing, modelLists[listing]);
      const target = req.method === "POST" ? route(url.pathname) : null;
      if (!target)
        return new Response(`fake-llm-server: no route for ${req.method} ${url.pathname}`, { status: 404 });
      const text = await req.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      const bodyModel = (body as { model?: unknown } | null)?.model;
      const model = target.pathModel ?? (typeof bodyModel === "string" ? bodyModel : "unknown");
      const request: FakeRequest = {
        protocol: target.protocol,
        path: url.pathname,
        headers: Object.fromEntries(req.headers.entries()),
        body,
        model,
        receivedAt,
      };
      requests.push(request);
      options.onRequest?.(request);
      // What the real API refuses is refused here too, before a scripted turn is consumed.
      const refusal = checkRules({
        protocol: target.protocol,
        path: url.pathname,
        body,
        raw: text,
        model,
        settings,
      });
      if (refusal)
        return new Response(JSON.stringify(refusal.body), {
          status: refusal.status,
          headers: { "content-type": "application/json" },
        });
      const turn = nextTurn(target.protocol, body);
      if (!turn || (turn.protocol && turn.protocol !== target.protocol)) {
        const why = turn
          ? `the next scripted turn is for ${turn.protocol}`
          : "no scripted turn left (enqueue more turns)";
        return errorResponse(
          target.protocol,
          {
            errorMessage: `fake-llm-server: request #${requests.length} (${target.protocol} ${model}): ${why}`,
          },
          400,
        );
      }
      if (turn.delayMs) await Bun.sleep(turn.delayMs);
      if (turn.holdUntil) await turn.holdUntil;
      if (turn.status !== undefined && turn.status !== 200)
        return errorResponse(target.protocol, turn, turn.status);
      const served =
        target.protocol === "anthropic"
          ? bindAnthropicTurn(turn, body)
          : target.protocol === "openai-responses"
            ? {
                ...turn,
                withholdSummary: !(body as { reasoning?: { summary?: unknown } } | null)?.reasoning?.summary,
              }
            : turn;
      return streamResponse(
        encodeTurn(target.protocol, served, model),
        served,
        closed,
        () => dropped,
        () => {
          request.respondedAt = performance.now();
        },
      );
    },
  });

  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    geminiBaseUrl: url,
    enqueue: (...turns) => {
      queue.push(...turns);
    },
    enqueueFor: (match, ...turns) => {
      if (match === "") throw new Error("enqueueFor: an empty match would take every request");
      const existing = routed.find((r) => r.match === match);
      if (existing) existing.turns.push(...turns);
      else routed.push({ match, turns: [...turns] });
    },
    pending: () => routed.reduce((sum, r) => sum + r.turns.length, queue.length),
    serveModels: (protocol, list) => {
      modelLists[protocol] = list;
    },
    serveCatalog(body, status = 200) {
      catalog = { text: typeof body === "string" ? body : JSON.stringify(body), status };
    },
    clear: () => {
      queue.length = 0;
      routed.length = 0;
    },
    dropHanging: () => {
      const release = drop;
      dropped = new Promise<void>((resolve) => {
        drop = resolve;
      });
      release();
    },
    requests,
    settings,
    close: async () => {
      markClosed();
      await server.stop(true);
    },
  };
}

async function main(argv: string[]): Promise<void> {
  const scriptAt = argv.indexOf("--script");
  const portAt = argv.indexOf("--port");
  const server = await startFakeLlmServer({ port: portAt >= 0 ? Number(argv[portAt + 1]) : 0 });
  if (scriptAt >= 0) {
    const file = argv[scriptAt + 1];
    if (!file) throw new Error("--script needs a file name");
    const turns = (await Bun.file(file).json()) as FakeTurn[];
    if (!Array.isArray(turns)) throw new Error(`${file}: expected a JSON array of turns`);
    server.enqueue(...turns);
  }
  process.stdout.write(`${server.url}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.main) await main(process.argv.slice(2));
