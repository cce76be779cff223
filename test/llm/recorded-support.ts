/**
 * Reading test/fixtures/conformance/recorded-exchanges/ (see its README.md), for every provider: VCR cassettes
 * (`*.vcr.yaml`, parsed with `yaml`), chunk files (`*.chunks.txt`, one decoded SSE `data:` payload per
 * line) and single response objects (`*.json`), and turning a recorded response into a fake-server turn
 * in its protocol's framing: a recorded SSE body is served byte for byte (`FakeTurn.rawSse`), a chunk file
 * line by line (`rawEvents`, or `namedEventSse` for the framings with `event:` lines), and a non-streamed
 * Anthropic message as the events its stream would have carried.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import type { FakeProtocol, FakeTurn } from "../support/fake-llm-server.ts";

export const RECORDED_DIR = path.resolve(import.meta.dir, "../fixtures/conformance/recorded-exchanges");

/** One recorded request/response pair of a cassette. */
export interface RecordedExchange {
  /** The JSON body the recorded client sent. */
  request: Record<string, unknown>;
  uri: string;
  status: number;
  /** The SSE text of a streamed response. */
  sse?: string;
  /** The JSON object of a non-streamed response. */
  json?: Record<string, unknown>;
}

interface VcrInteraction {
  request: { parsed_body?: Record<string, unknown>; body?: string; uri?: string };
  response: {
    status?: { code?: number };
    body?: { string?: string; parsed_body?: Record<string, unknown> };
    parsed_body?: Record<string, unknown>;
  };
}

/** The exchanges of a VCR cassette (path relative to RECORDED_DIR), in order. A response body is JSON
 * (`parsed_body`, or a string holding an object) or SSE text. */
export function readCassette(file: string): RecordedExchange[] {
  const doc = parse(readFileSync(path.join(RECORDED_DIR, file), "utf8")) as {
    interactions: VcrInteraction[];
  };
  return doc.interactions.map(({ request, response }) => {
    const exchange: RecordedExchange = {
      request: request.parsed_body ?? (JSON.parse(request.body ?? "{}") as Record<string, unknown>),
      uri: request.uri ?? "",
      status: response.status?.code ?? 200,
    };
    const text = response.body?.string;
    const json = response.parsed_body ?? response.body?.parsed_body;
    if (json) exchange.json = json;
    else if (text?.trimStart().startsWith("{")) exchange.json = JSON.parse(text) as Record<string, unknown>;
    else if (text !== undefined) exchange.sse = text;
    return exchange;
  });
}

/** The event lines of a chunk file (`*.chunks.txt`): non-blank lines, a leading `data: ` removed. */
export function readChunkLines(file: string): string[] {
  return readFileSync(path.join(RECORDED_DIR, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (line.startsWith("data: ") ? line.slice("data: ".length) : line));
}

/** The payloads of a chunk file, parsed. */
export function readChunks(file: string): Record<string, unknown>[] {
  return readChunkLines(file).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A JSON file of the corpus, parsed. */
export function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(RECORDED_DIR, file), "utf8")) as Record<string, unknown>;
}

/** Payloads as an SSE body with `event: <type>` lines (Anthropic and OpenAI Responses framing). */
export function namedEventSse(payloads: Record<string, unknown>[]): string {
  return payloads.map((p) => `event: ${String(p.type)}\ndata: ${JSON.stringify(p)}\n\n`).join("");
}

/** The stream events of a non-streamed Anthropic message (Messages API streaming event order). */
export function anthropicMessageEvents(message: Record<string, unknown>): string[] {
  const { content, stop_reason, stop_sequence, usage, ...rest } = message as {
    content: Record<string, unknown>[];
    stop_reason: string | null;
    stop_sequence: string | null;
    usage: Record<string, unknown>;
  };
  const events: unknown[] = [
    {
      type: "message_start",
      message: {
        ...rest,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
  ];
  content.forEach((block, index) => {
    if (block.type === "thinking") {
      events.push({
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      if (block.thinking)
        events.push({
          type: "content_block_delta",
          index,
          delta: { type: "thinking_delta", thinking: block.thinking },
        });
      events.push({
        type: "content_block_delta",
        index,
        delta: { type: "signature_delta", signature: block.signature },
      });
    } else if (block.type === "text") {
      events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
    } else if (block.type === "tool_use") {
      events.push({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      events.push({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    } else {
      events.push({ type: "content_block_start", index, content_block: block });
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({ type: "message_delta", delta: { stop_reason, stop_sequence }, usage });
  events.push({ type: "message_stop" });
  return events.map((event) => JSON.stringify(event));
}

/** The fake-server turn that answers like the recorded response. */
export function recordedTurn(protocol: FakeProtocol, exchange: RecordedExchange): FakeTurn {
  if (exchange.sse !== undefined) return { protocol, rawSse: exchange.sse };
  if (exchange.json && protocol === "anthropic")
    return { protocol, rawEvents: anthropicMessageEvents(exchange.json) };
  throw new Error(`no ${protocol} framing for a non-streamed recorded response`);
}

/** A deep copy without `cache_control` keys (our adapter marks the cached prefix; recorded clients did not). */
export function withoutCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutCacheControl);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value))
    if (key !== "cache_control") out[key] = withoutCacheControl(inner);
  return out;
}
