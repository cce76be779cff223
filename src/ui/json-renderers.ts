/**
 * Machine-readable output.
 *
 * `--output stream-json` prints one JSON object per stdout line:
 * - first `{"type":"system","subtype":"init","schema_version":2,"session_id",...}` (from session_start,
 *   with `instructions`: the paths of the project instruction files in the root's system prompt);
 * - then every event flattened: `type` (the event kind), `agent`, `name`, `parent` (below the root), `depth`,
 *   `time`, then the event's data fields in snake_case (json-shape.ts; a tool call's `args` and
 *   `arguments` as the model sent them);
 * - last, and only there, the `{"type":"result",...}` object of {@link buildResultRecord}, with the
 *   run's warning events as `warnings` (result-warnings.ts).
 *
 * `--output json` prints that result object alone. Both keep stderr to warnings, errors and denials.
 */
import type { AgentEvent } from "../kernel/run-events/events.ts";
import type { Redactor } from "../kernel/text/redact.ts";
import { stringifyForTerminal } from "../kernel/text/terminal-text.ts";
import { SCHEMA_VERSION, snakeCaseKeys } from "./json-shape.ts";
import { ProgressLines } from "./progress-lines.ts";
import type { Renderer, TextSink } from "./renderer-types.ts";
import { buildResultRecord, type FinishedRun } from "./result.ts";
import { WarningLog } from "./result-warnings.ts";
import { writeAndFlush } from "./sink.ts";

/** Options shared by both JSON renderers. */
export interface JsonRendererOptions {
  stdout: TextSink;
  stderr: TextSink;
  redactor?: Redactor;
  /** stream-json only: include `text_delta` and `reasoning_delta` lines (default true). */
  includeTextDeltas?: boolean;
}

const ENVELOPE = new Set(["type", "subtype", "agent", "name", "parent", "depth", "time"]);

/** One event as a flat stream-json object (data fields that would clash with the envelope get a `data_` prefix). */
export function flattenEvent(event: AgentEvent): Record<string, unknown> {
  const line: Record<string, unknown> = { type: event.kind, agent: event.agent, name: event.name };
  if (event.parent !== undefined) line.parent = event.parent;
  line.depth = event.depth;
  line.time = event.time;
  const data = snakeCaseKeys(event.data) as Record<string, unknown>;
  for (const [key, value] of Object.entries(data)) {
    line[ENVELOPE.has(key) ? `data_${key}` : key] = value;
  }
  return line;
}

/** The first stream-json line, built from the root's session_start (or from what is known when it is missing). */
export function initLine(
  event: AgentEvent<"session_start"> | undefined,
  sessionId: string,
): Record<string, unknown> {
  const line: Record<string, unknown> = {
    type: "system",
    subtype: "init",
    schema_version: SCHEMA_VERSION,
    session_id: event?.data.sessionId ?? sessionId,
  };
  if (event) {
    line.agent = event.agent;
    line.name = event.name;
    line.depth = event.depth;
    line.time = event.time;
    line.goal = event.data.goal;
    line.agent_name = event.data.agentName;
    line.model = event.data.model;
    line.cwd = event.data.cwd;
    line.resumed = event.data.resumed ?? false;
    line.instructions = event.data.instructions ?? [];
  }
  return line;
}

abstract class JsonRendererBase implements Renderer {
  abstract readonly kind: "json" | "stream-json";
  protected readonly progress: ProgressLines;
  protected startedAt: number | undefined;
  /** The run's warning events, for the result's `warnings` (the renderer sees every event). */
  private readonly warnings = new WarningLog();

  constructor(protected readonly options: JsonRendererOptions) {
    this.progress = new ProgressLines({ stderr: options.stderr, colors: false, level: "minimal" });
  }

  onEvent(event: AgentEvent): void {
    this.startedAt ??= event.time;
    this.progress.onEvent(event);
    this.warnings.onEvent(event);
  }

  abstract finish(run: FinishedRun): Promise<void>;

  dispose(): void {}

  protected serialize(value: unknown): string {
    const { redactor } = this.options;
    return `${stringifyForTerminal(redactor ? redactor.redactValue(value) : value)}\n`;
  }

  protected result(run: FinishedRun): string {
    const durationMs = this.startedAt === undefined ? undefined : Date.now() - this.startedAt;
    return this.serialize(buildResultRecord(run, { durationMs, warnings: this.warnings.fields() }));
  }
}

/** `--output stream-json`: the init line, one line per event, the result line. */
export class StreamJsonRenderer extends JsonRendererBase {
  readonly kind = "stream-json" as const;
  private initialized = false;

  override onEvent(event: AgentEvent): void {
    super.onEvent(event);
    if (!this.initialized) {
      this.initialized = true;
      const start = event.kind === "session_start" ? event : undefined;
      this.options.stdout.write(this.serialize(initLine(start, "")));
      if (start) return;
    }
    const delta = event.kind === "text_delta" || event.kind === "reasoning_delta";
    if (delta && this.options.includeTextDeltas === false) return;
    this.options.stdout.write(this.serialize(flattenEvent(event)));
  }

  async finish(run: FinishedRun): Promise<void> {
    if (!this.initialized) {
      this.initialized = true;
      this.options.stdout.write(this.serialize(initLine(undefined, run.sessionId)));
    }
    this.progress.finish(run);
    await writeAndFlush(this.options.stdout, this.result(run));
  }
}

/** `--output json`: nothing on stdout until the end, then the result object alone. */
export class JsonRenderer extends JsonRendererBase {
  readonly kind = "json" as const;

  async finish(run: FinishedRun): Promise<void> {
    this.progress.finish(run);
    await writeAndFlush(this.options.stdout, this.result(run));
  }
}
