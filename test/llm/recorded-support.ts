/**
 * Reading ../shared/conformance/recorded-exchanges/ (see its README.md): VCR cassettes (`*.vcr.yaml`,
 * parsed with `yaml`), chunk files (`*.chunks.txt`, one decoded SSE `data:` payload per line) and single
 * response objects (`*.json`). Generic over providers: each test serves the bodies through the fake server
 * in its protocol's framing (a cassette's SSE text can be served as it is, `FakeTurn.rawSse`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";

export const RECORDED_DIR = path.resolve(import.meta.dir, "../../../shared/conformance/recorded-exchanges");

/** One recorded request/response pair of a cassette. */
export interface Interaction {
  /** The JSON body the recorded client sent. */
  requestBody: Record<string, unknown>;
  uri: string;
  status: number;
  /** The response body: SSE text for a stream, or the parsed object for JSON. */
  responseBody: string | Record<string, unknown>;
}

interface RawInteraction {
  request: { parsed_body?: Record<string, unknown>; body?: string; uri: string };
  response: { status: { code: number }; body: { string?: string; parsed_body?: Record<string, unknown> } };
}

/** The interactions of a VCR cassette, relative to RECORDED_DIR. */
export function readCassette(file: string): Interaction[] {
  const doc = parse(readFileSync(path.join(RECORDED_DIR, file), "utf8")) as {
    interactions: RawInteraction[];
  };
  return doc.interactions.map((raw) => {
    const requestBody =
      raw.request.parsed_body ?? (JSON.parse(raw.request.body ?? "{}") as Record<string, unknown>);
    const body = raw.response.body;
    let responseBody: Interaction["responseBody"] = body.parsed_body ?? body.string ?? "";
    if (typeof responseBody === "string" && responseBody.trimStart().startsWith("{")) {
      responseBody = JSON.parse(responseBody) as Record<string, unknown>;
    }
    return { requestBody, uri: raw.request.uri, status: raw.response.status.code, responseBody };
  });
}

/** The payloads of a chunk file (blank lines dropped, a leading `data: ` stripped), parsed. */
export function readChunks(file: string): Record<string, unknown>[] {
  return readFileSync(path.join(RECORDED_DIR, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line.startsWith("data: ") ? line.slice(6) : line) as Record<string, unknown>);
}

/** A JSON file of the corpus, parsed. */
export function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(RECORDED_DIR, file), "utf8")) as Record<string, unknown>;
}

/** Payloads as an SSE body with `event: <type>` lines (Anthropic and OpenAI Responses framing). */
export function namedEventSse(payloads: Record<string, unknown>[]): string {
  return payloads.map((p) => `event: ${String(p.type)}\ndata: ${JSON.stringify(p)}\n\n`).join("");
}
