/**
 * The process's standard streams for everything but the Ink UI: stdout and stderr as light sinks, and
 * whether fds 0-2 are terminals.
 *
 * Why not process.stdout: in Bun the first touch of `process.stdout`, `process.stderr` or `process.stdin`
 * (even `.isTTY`) builds Node stream objects, loading node:stream, internal:fs/streams and node:tty.
 * In a compiled binary that is about 20 ms of wall time before anything is written: a one-liner
 * `process.stdout.write` program takes 49 ms, the same through `Bun.stdout.writer()` 24 ms, against 26 ms
 * for `bun -e 0` (bench/startup.ts measures the whole one-shot). A pipe or file goes through Bun's
 * FileSink, the writer `process.stdout` itself wraps for a pipe, so the bytes and their order are the
 * same. A terminal keeps `process.stdout` (Ink draws there, and a person does not notice 20 ms); so does
 * every write after {@link handOverToProcessStreams}, which the Ink UI calls before it takes the screen, so the
 * two writers never interleave.
 *
 * A write error (EPIPE: the reader went away; EBADF: a closed fd) marks the stream broken: later writes
 * are dropped and {@link StdSink.broken} tells the caller (stdout-pipe.ts turns it into exit 141).
 */
import type { FileSink } from "bun";
import type { TextSink } from "../../../ui/renderer-types.ts";

type StdFd = 0 | 1 | 2;

const terminal = new Map<StdFd, boolean>();

/**
 * isatty(3) for fd 0, 1 or 2, cached. Bun's `node:tty` loads node:net and the stream modules (15 ms in a
 * compiled binary); `process.binding("tty_wrap").isTTY` is the check Node's `tty.isatty` makes (lib/tty.js
 * takes `isTTY` from the tty_wrap binding), and Bun's own test of `process.binding('tty_wrap')` checks it
 * against `isatty` for fds 0, 1 and 2. The module's `isatty` stays as the fallback.
 */
export function isTerminal(fd: StdFd): boolean {
  let known = terminal.get(fd);
  if (known === undefined) {
    known = ttyCheck()(fd);
    terminal.set(fd, known);
  }
  return known;
}

function ttyCheck(): (fd: number) => boolean {
  try {
    const binding = (process as unknown as { binding(name: string): { isTTY?: unknown } }).binding(
      "tty_wrap",
    );
    if (typeof binding.isTTY === "function") return binding.isTTY as (fd: number) => boolean;
  } catch {
    // Not offered by this runtime: the module's own check below.
  }
  return (require("node:tty") as typeof import("node:tty")).isatty;
}

let handedOver = false;

/**
 * From now on every write goes through process.stdout / process.stderr (the Ink UI is about to draw);
 * returns them, watched for errors.
 */
export function handOverToProcessStreams(): { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream } {
  handedOver = true;
  return { stdout: stdout.nodeStream(), stderr: stderr.nodeStream() };
}

type WriteCallback = (error?: Error | null) => void;

/** stdout or stderr: `write` never throws; a failed stream drops what comes after. */
export class StdSink implements TextSink {
  #sink: FileSink | undefined;
  #pending: Promise<unknown> = Promise.resolve();
  #error: Error | undefined;
  #watched = false;
  readonly #onError: ((error: Error) => void)[] = [];

  constructor(readonly fd: 1 | 2) {}

  get isTTY(): boolean {
    return isTerminal(this.fd);
  }

  /** True once a write failed; nothing written after that reaches the fd. */
  get broken(): boolean {
    return this.#error !== undefined;
  }

  /** Called once, with the first write error. */
  onError(listener: (error: Error) => void): void {
    this.#onError.push(listener);
  }

  write(chunk: string, callback?: WriteCallback): boolean {
    if (this.#error) {
      if (callback) queueMicrotask(() => callback(this.#error));
      return false;
    }
    if (handedOver || this.isTTY) return this.nodeStream().write(chunk, callback);
    try {
      this.#sink ??= (this.fd === 1 ? Bun.stdout : Bun.stderr).writer();
      this.#sink.write(chunk);
      const flushed = this.#sink.flush();
      if (flushed instanceof Promise) {
        // The fd is full (a slow reader): the FileSink keeps the rest in order and writes it when it can.
        const done = flushed.then(
          () => callback?.(),
          (error: unknown) => {
            const failure = this.#fail(error);
            callback?.(failure);
          },
        );
        this.#pending = Promise.all([this.#pending, done]);
        return false;
      }
    } catch (error) {
      const failure = this.#fail(error);
      if (callback) queueMicrotask(() => callback(failure));
      return false;
    }
    if (callback) queueMicrotask(() => callback());
    return true;
  }

  /** Resolves once everything written so far has reached the fd, or the stream failed. */
  async flushed(): Promise<void> {
    await this.#pending;
    if (handedOver || this.isTTY) {
      if (this.#error) return;
      await new Promise<void>((resolve) => this.nodeStream().write("", () => resolve()));
    }
  }

  /** process.stdout or process.stderr, with this sink's error watch on it. */
  nodeStream(): NodeJS.WriteStream {
    const stream = this.fd === 1 ? process.stdout : process.stderr;
    if (!this.#watched) {
      this.#watched = true;
      // Without a listener the runtime prints a stream error with a stack trace.
      stream.on("error", (error: Error) => this.#fail(error));
    }
    return stream;
  }

  #fail(error: unknown): Error {
    const failure = error instanceof Error ? error : new Error(String(error));
    if (!this.#error) {
      this.#error = failure;
      for (const listener of this.#onError) listener(failure);
    }
    return failure;
  }
}

/** The process's stdout (fd 1). */
export const stdout = new StdSink(1);
/** The process's stderr (fd 2). */
export const stderr = new StdSink(2);
