/**
 * The cassette file format (JSONL, one record per line):
 *
 *   {"type":"cassette","version":1,"created":"2026-11-22T13:00:00.000Z"}
 *   {"type":"exchange","turn":1,"request":{...summary...},"events":[...StreamEvents...]}
 *   ...
 *
 * A request summary identifies the call without storing the whole conversation: model, a hash of the
 * system prompt, message count, the last message, and tool names. Events are the normalized
 * StreamEvents the provider layer produced, ending with exactly one terminal event. Workspace paths are
 * stored as `${WORKSPACE}`; secrets are redacted.
 */
import { createHash } from "node:crypto";
import type { Message, ModelRef, ModelRequest, StreamEvent } from "../kernel/index.ts";

export const CASSETTE_VERSION = 1;
// biome-ignore lint/suspicious/noTemplateCurlyInString: the literal placeholder text stored in cassettes
export const WORKSPACE_PLACEHOLDER = "${WORKSPACE}";

export interface CassetteHeader {
  type: "cassette";
  version: number;
  created: string;
}

export interface RequestSummary {
  model: Pick<ModelRef, "provider" | "providerName" | "id">;
  system: { sha256: string; chars: number };
  messageCount: number;
  lastMessage?: Message;
  tools: string[];
}

export interface CassetteExchange {
  type: "exchange";
  /** 1-based position in the run. */
  turn: number;
  request: RequestSummary;
  events: StreamEvent[];
}

export type CassetteRecord = CassetteHeader | CassetteExchange;

/** What identifies a request in a cassette. */
export function summarizeRequest(request: ModelRequest): RequestSummary {
  const summary: RequestSummary = {
    model: {
      provider: request.model.provider,
      providerName: request.model.providerName,
      id: request.model.id,
    },
    system: {
      sha256: createHash("sha256").update(request.system).digest("hex").slice(0, 16),
      chars: request.system.length,
    },
    messageCount: request.messages.length,
    tools: request.tools.map((t) => t.name),
  };
  const last = request.messages[request.messages.length - 1];
  if (last) summary.lastMessage = last;
  return summary;
}

/** Text forms of a workspace root worth replacing: as given and its real path, longest first. */
function rootForms(roots: string[]): string[] {
  return [...new Set(roots.filter((r) => r.length > 1).map((r) => r.replace(/\/+$/, "")))].sort(
    (a, b) => b.length - a.length,
  );
}

/** JSON-escapes text so it can be matched and substituted inside serialized JSON. */
function jsonInner(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Serializes a record, with every workspace root replaced by the placeholder. */
export function encodeRecord(record: CassetteRecord, workspaceRoots: string[]): string {
  let line = JSON.stringify(record);
  for (const root of rootForms(workspaceRoots)) {
    const needle = jsonInner(root);
    if (line.includes(needle)) line = line.split(needle).join(WORKSPACE_PLACEHOLDER);
  }
  return line;
}

/** Parses one cassette line, substituting the workspace root back. Returns undefined for a torn line. */
export function decodeRecord(line: string, workspaceRoot: string): CassetteRecord | undefined {
  const text = line.split(WORKSPACE_PLACEHOLDER).join(jsonInner(workspaceRoot.replace(/\/+$/, "") || "/"));
  try {
    const value = JSON.parse(text) as CassetteRecord;
    if (value && (value.type === "cassette" || value.type === "exchange")) return value;
    return undefined;
  } catch {
    return undefined;
  }
}
