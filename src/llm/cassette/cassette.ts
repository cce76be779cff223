/**
 * Record and replay at the provider layer. `recordingStream` appends each model exchange to a
 * cassette as it completes; `replayStream` serves a cassette back in order as a StreamFn, so a run can
 * be reproduced with no key and no network. See cassette-format.ts for the file format.
 */
import { mkdirSync, openSync, realpathSync } from "node:fs";
import { dirname } from "node:path";
import { readRegularFileSync } from "../../kernel/files/regular-file.ts";
import { writeAllSync } from "../../kernel/files/write-all.ts";
import { AppError, type ModelRequest, type StreamEvent, type StreamFn } from "../../kernel/index.ts";
import { Redactor } from "../../kernel/text/redact.ts";
import { costOf, modelInfo } from "../catalog.ts";
import {
  CASSETTE_VERSION,
  type CassetteExchange,
  type CassetteHeader,
  decodeRecord,
  encodeRecord,
  summarizeRequest,
} from "./cassette-format.ts";
import { firstDifference } from "./cassette-match.ts";

export interface CassetteOptions {
  /** Paths under this root are stored as `${WORKSPACE}` and substituted back on replay. */
  workspaceRoot: string;
  /** Redacts secrets before anything is written. Default: Redactor.fromEnv(process.env). */
  redactor?: Redactor;
}

function realRoot(root: string): string[] {
  try {
    return [root, realpathSync(root)];
  } catch {
    return [root];
  }
}

/**
 * Wraps a stream function so every exchange is appended to `file` (created or truncated now, with a
 * header line) when its terminal event arrives, or when the consumer stops early. Events pass through
 * unchanged and as they come. Each line is written with a synchronous write, so a crash loses nothing.
 * The file is opened once, here, and every exchange is written to that descriptor: a model that later
 * replaces the path with a symlink (to ~/.bashrc, say) redirects nothing (issue 22).
 */
/** A recording stream function, and the first write that failed (a full disk): the command reports it
 * at the run's end (exit 3), since a stream function never throws and its consumer may stop reading
 * before the exchange is saved. */
export type RecordingStream = StreamFn & { failure(): AppError | undefined };

export function recordingStream(inner: StreamFn, file: string, options: CassetteOptions): RecordingStream {
  const redactor = options.redactor ?? Redactor.fromEnv(process.env);
  const roots = realRoot(options.workspaceRoot);
  const header: CassetteHeader = {
    type: "cassette",
    version: CASSETTE_VERSION,
    created: new Date().toISOString(),
  };
  let fd: number;
  try {
    mkdirSync(dirname(file), { recursive: true });
    fd = openSync(file, "w", 0o600);
    writeAllSync(fd, `${encodeRecord(header, roots)}\n`);
  } catch (error) {
    throw new AppError("usage", `cannot write cassette ${file}: ${(error as Error).message}`, { file });
  }
  let turn = 0;
  let failure: AppError | undefined;
  const save = (exchange: CassetteExchange): void => {
    try {
      writeAllSync(fd, `${encodeRecord(redactor.redactValue(exchange), roots)}\n`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      failure ??= new AppError("state", `cannot write cassette ${file}: ${code}`, { file });
    }
  };

  const record = async function* record(request: ModelRequest): AsyncGenerator<StreamEvent> {
    turn += 1;
    const exchange: CassetteExchange = {
      type: "exchange",
      turn,
      request: summarizeRequest(request),
      events: [],
    };
    try {
      for await (const event of inner(request)) {
        exchange.events.push(event);
        yield event;
      }
    } finally {
      save(exchange);
    }
  };
  return Object.assign(record, { failure: () => failure });
}

/**
 * Largest cassette read (64 MiB). A cassette can come with a repository (an eval suite's cassettes/), so
 * it is read like every other file found there: by the guarded reader (regular-file.ts), never a FIFO
 * (which would block the read) or a device (`/dev/zero` reads without end), and never without a bound.
 */
export const CASSETTE_CAP = 64 * 1024 * 1024;

/** Reads a cassette's exchanges in order. Throws AppError("usage") when the file cannot be read or is not a cassette. */
export function readCassette(file: string, workspaceRoot: string): CassetteExchange[] {
  let text: string;
  try {
    const read = readRegularFileSync(file, CASSETTE_CAP);
    if (!read.ok)
      throw new Error(
        read.why === "special"
          ? `it is ${read.kind}, not a regular file; refused`
          : `it is larger than the ${CASSETTE_CAP} byte limit for cassettes; refused`,
      );
    text = read.bytes.toString("utf8");
  } catch (error) {
    throw new AppError("usage", `cannot read cassette ${file}: ${(error as Error).message}`, { file });
  }
  const exchanges: CassetteExchange[] = [];
  const lines = text.split("\n");
  let sawHeader = false;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const record = decodeRecord(line, workspaceRoot);
    if (!record) {
      // A torn last line (a crash mid-write) is tolerated; anything else is a broken file.
      if (i >= lines.length - 2) break;
      throw new AppError("usage", `cassette ${file} line ${i + 1} is not a cassette record`, {
        file,
        line: i + 1,
      });
    }
    if (record.type === "cassette") {
      if (record.version !== CASSETTE_VERSION) {
        throw new AppError(
          "usage",
          `cassette ${file} has version ${record.version}; this agent reads version ${CASSETTE_VERSION}`,
          {
            file,
          },
        );
      }
      sawHeader = true;
    } else {
      exchanges.push(record);
    }
  }
  if (!sawHeader) throw new AppError("usage", `${file} is not a cassette (no header line)`, { file });
  return exchanges;
}

/** A replaying stream, and what the run needs to know about the replay afterwards. */
export interface Replay {
  stream: StreamFn;
  /** Why the cassette does not fit this run, as a sentence: the first request that did not match its
   * recording (strict replay only), or the first asked for past its last exchange (strict or loose). The
   * command reports it as a usage error (docs/ci-and-json.md, exit 2: "a --replay cassette recorded for
   * other requests"), not as the provider error the stream ended with. */
  misfit(): string | undefined;
  /** What the served exchanges cost when they were recorded, at catalog prices. */
  recordedCostUsd(): number;
}

/**
 * Serves the exchanges of `file` in order. Unless `loose`, each request must match the recorded one
 * (cassette-match.ts); the first that does not ends the stream with an error and is kept for
 * {@link Replay.misfit}. A call past the last exchange yields a terminal error saying how many turns
 * the cassette holds, kept the same way. Reads the file now, so a missing or broken cassette fails before the run starts.
 */
export function replayStream(file: string, options: { workspaceRoot: string; loose?: boolean }): Replay {
  const exchanges = readCassette(file, options.workspaceRoot);
  let next = 0;
  let misfit: string | undefined;
  let recordedCost = 0;

  async function* replay(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const exchange = exchanges[next];
    next += 1;
    const difference =
      exchange && !options.loose ? firstDifference(exchange.request, summarizeRequest(request)) : undefined;
    if (misfit === undefined && difference !== undefined)
      misfit = `--replay ${file}: request ${next} does not match the recording: ${difference}; record the cassette again, or pass --replay-loose to serve it anyway`;
    if (misfit === undefined && !exchange)
      misfit = `--replay ${file}: the cassette holds ${exchanges.length} turn${exchanges.length === 1 ? "" : "s"} and the run asked for turn ${next}; record the cassette again for this run`;
    // Once the cassette does not fit, every later request ends the same way: nothing more is served.
    if (misfit !== undefined || !exchange) {
      yield {
        type: "error",
        error: {
          kind: "bad_request",
          message: misfit ?? "",
          provider: request.model.provider,
          model: request.model.id,
        },
      };
      return;
    }
    for (const event of exchange.events) {
      if (request.signal?.aborted) {
        yield {
          type: "error",
          error: {
            kind: "aborted",
            message: "aborted",
            provider: request.model.provider,
            model: request.model.id,
          },
        };
        return;
      }
      if (event.type === "done") {
        const { provider, id } = exchange.request.model;
        recordedCost += costOf(event.usage, modelInfo(id, provider));
      }
      yield event;
    }
  }
  return { stream: replay, misfit: () => misfit, recordedCostUsd: () => recordedCost };
}
