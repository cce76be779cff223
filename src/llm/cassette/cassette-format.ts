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
import {
  type Message,
  type ModelRef,
  type ModelRequest,
  mapStrings,
  type StreamEvent,
} from "../../kernel/index.ts";

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

/** Serializes a record, with every workspace root in its strings replaced by the placeholder. */
export function encodeRecord(record: CassetteRecord, workspaceRoots: string[]): string {
  const forms = rootForms(workspaceRoots);
  return JSON.stringify(
    mapStrings(record, (text) =>
      forms.reduce(
        (out, root) => (out.includes(root) ? out.split(root).join(WORKSPACE_PLACEHOLDER) : out),
        text,
      ),
    ),
  );
}

/** Parses one cassette line, substituting the workspace root back. Returns undefined for a torn line. */
export function decodeRecord(line: string, workspaceRoot: string): CassetteRecord | undefined {
  const root = workspaceRoot.replace(/\/+$/, "") || "/";
  let value: CassetteRecord;
  try {
    value = JSON.parse(line) as CassetteRecord;
  } catch {
    return undefined;
  }
  if (!value || (value.type !== "cassette" && value.type !== "exchange")) return undefined;
  return mapStrings(value, (text) => text.split(WORKSPACE_PLACEHOLDER).join(root));
}
