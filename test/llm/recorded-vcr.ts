/**
 * Reads the recorded exchanges of ../shared/conformance/recorded-exchanges (VCR cassettes and chunk
 * files, see its README) and turns each recorded response into a fake-server turn in its protocol's
 * framing: a recorded SSE body is served byte for byte (`rawSse`), a chunk file line by line
 * (`rawEvents`), and a non-streamed Anthropic message as the events its stream would have carried.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import type { FakeProtocol, FakeTurn } from "../support/fake-llm-server.ts";

export const RECORDED = path.resolve(import.meta.dir, "../../../shared/conformance/recorded-exchanges");

/** One recorded request/response pair. */
export interface RecordedExchange {
  /** The JSON body the recorded client sent. */
  request: Record<string, unknown>;
  status: number;
  /** The SSE text of a streamed response. */
  sse?: string;
  /** The JSON object of a non-streamed response. */
  json?: Record<string, unknown>;
}

interface VcrInteraction {
  request: { parsed_body?: Record<string, unknown> };
  response: {
    status?: { code?: number };
    body?: { string?: string };
    parsed_body?: Record<string, unknown>;
  };
}

/** The exchanges of a VCR cassette (`*.vcr.yaml`), in order. */
export function readCassette(file: string): RecordedExchange[] {
  const doc = parse(readFileSync(path.join(RECORDED, file), "utf8")) as { interactions: VcrInteraction[] };
  return doc.interactions.map((interaction) => {
    const exchange: RecordedExchange = {
      request: interaction.request.parsed_body ?? {},
      status: interaction.response.status?.code ?? 200,
    };
    if (typeof interaction.response.body?.string === "string")
      exchange.sse = interaction.response.body.string;
    if (interaction.response.parsed_body) exchange.json = interaction.response.parsed_body;
    return exchange;
  });
}

/** The event lines of a chunk file (`*.chunks.txt`): non-blank lines, a leading `data: ` removed. */
export function readChunkLines(file: string): string[] {
  return readFileSync(path.join(RECORDED, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (line.startsWith("data: ") ? line.slice("data: ".length) : line));
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
