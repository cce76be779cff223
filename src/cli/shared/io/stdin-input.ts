/**
 * Piped stdin for `agent run` and `agent helper` (one module for both): read it, refuse what cannot be
 * a prompt (binary data, more than the model can read), and join it with the arguments.
 *
 * Open-but-silent stdin: when the task is given as arguments, stdin that is not a terminal is only
 * extra context, so we wait for its first byte at most {@link FIRST_BYTE_WAIT_MS} and then go on
 * without it (a warning on stderr), as `claude -p` does ("no stdin data received in 3s, proceeding
 * without it"; anthropics/claude-code#60998). `codex exec` instead waits for EOF forever, a hang reported
 * many times from CI runners and agent harnesses (openai/codex#20919). Once data arrives we read to EOF.
 * When stdin is the task itself (`agent run -`, or no arguments) we wait for EOF however long it takes.
 */
import { AppError } from "../../../kernel/index.ts";
import { isTerminal } from "./std-streams.ts";

/** How long a goal given as arguments waits for the first byte of a silent, never-closed stdin. */
export const FIRST_BYTE_WAIT_MS = 3000;

/**
 * The most stdin read, whatever the model: 8 MiB, above what any catalog model can take (the largest
 * window, 1,048,576 tokens, is about 3 MiB at the 3 bytes per token of {@link checkFitsContext}). Past it
 * the read stops and the input is refused without reading the rest, so `yes | agent helper …` ends with a
 * usage error instead of growing until the OOM killer.
 */
export const MAX_STDIN_BYTES = 8 * 1024 * 1024;

/** How much of the input is checked for binary content (NUL bytes, invalid UTF-8). */
const SNIFF_BYTES = 1024;

/** What was read: the text, and whether a silent stdin was given up on. */
export interface StdinRead {
  text: string;
  /** True when nothing arrived within the first-byte wait and the run went on without stdin. */
  skipped: boolean;
}

/**
 * Reads piped stdin; "" on a terminal. With `waitForEof` false (the task is in the arguments), a stdin
 * that sends nothing within `firstByteMs` is left alone. Binary input is a usage error (exit 2).
 * Read through `Bun.stdin.stream()`, not `process.stdin`, whose Node stream costs start-up time
 * (std-streams.ts).
 */
export async function readPipedStdin(options: {
  waitForEof: boolean;
  /** Defaults to the process's stdin (fd 0) when it is not a terminal. */
  stdin?: ReadableStream<Uint8Array>;
  firstByteMs?: number;
  /** Defaults to {@link MAX_STDIN_BYTES}. */
  maxBytes?: number;
}): Promise<StdinRead> {
  if (options.stdin === undefined && isTerminal(0)) return { text: "", skipped: false };
  const bytes = await collect(
    options.stdin ?? Bun.stdin.stream(),
    options.waitForEof ? undefined : (options.firstByteMs ?? FIRST_BYTE_WAIT_MS),
    options.maxBytes ?? MAX_STDIN_BYTES,
  );
  if (bytes === undefined) return { text: "", skipped: true };
  return { text: decodeStdin(bytes), skipped: false };
}

async function collect(
  stdin: ReadableStream<Uint8Array>,
  firstByteMs: number | undefined,
  maxBytes: number,
): Promise<Buffer | undefined> {
  const reader = stdin.getReader();
  const fail = (error: unknown) =>
    new AppError("usage", `cannot read stdin: ${(error as Error).message ?? String(error)}`);
  let next = reader.read();
  if (firstByteMs !== undefined) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silent = new Promise<"silent">((resolve) => {
      timer = setTimeout(() => resolve("silent"), firstByteMs);
    });
    const first = await Promise.race([next, silent]).catch((error: unknown) => {
      throw fail(error);
    });
    clearTimeout(timer);
    if (first === "silent") {
      // Leave stdin alone: the pending read is dropped, nothing more is taken from the pipe.
      next.catch(() => {});
      reader.releaseLock();
      return undefined;
    }
    next = Promise.resolve(first);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: Awaited<typeof next>;
    try {
      chunk = await next;
    } catch (error) {
      throw fail(error);
    }
    if (chunk.done) return Buffer.concat(chunks);
    total += chunk.value.byteLength;
    if (total > maxBytes) {
      // Stop reading now: the writer (e.g. `yes`) gets EPIPE once the pipe is closed, and nothing more is held.
      chunks.length = 0;
      await reader.cancel().catch(() => {});
      throw new AppError("usage", tooLarge(maxBytes));
    }
    chunks.push(chunk.value);
    next = reader.read();
  }
}

function tooLarge(maxBytes: number): string {
  const mib = maxBytes / (1024 * 1024);
  return `stdin is larger than ${mib} MiB, more than any model can read; refused without reading the rest. Pipe less (e.g. head, grep or a diff)`;
}

/** UTF-8 text of piped input; NUL bytes or invalid UTF-8 in the first KiB mean binary: usage error. */
export function decodeStdin(bytes: Buffer): string {
  const head = bytes.subarray(0, SNIFF_BYTES);
  // `stream: true` lets a multi-byte character cut at the sniff boundary pass; a broken one still throws.
  let valid = !head.includes(0);
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: bytes.length > SNIFF_BYTES });
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new AppError(
      "usage",
      "stdin looks like binary data (NUL bytes or invalid UTF-8); pipe text instead, e.g. convert it first or pass a file path in the task",
    );
  }
  return bytes.toString("utf8");
}

/**
 * The task from the arguments plus piped stdin as a delimited block; stdin alone when there are no
 * arguments (or the only one is `-`). Usage error naming `usage` when both are empty.
 */
export function joinTask(args: string[], stdinText: string, usage: string): string {
  const words = args.length === 1 && args[0] === "-" ? [] : args;
  const prompt = words.join(" ").trim();
  const piped = stdinText.replace(/\s+$/, "");
  if (prompt === "" && piped.trim() === "") throw new AppError("usage", usage);
  if (piped.trim() === "") return prompt;
  if (prompt === "") return piped;
  return `${prompt}\n\n<stdin>\n${piped}\n</stdin>`;
}

/** True when the arguments leave the task to stdin (none, or a lone `-`). */
export function taskFromStdin(args: string[]): boolean {
  return args.length === 0 || (args.length === 1 && args[0] === "-");
}

/**
 * Refuses piped input that cannot fit the model's context window. The estimate is conservative (one
 * token per 3 bytes of UTF-8, above the ~4 characters per token providers quote for English text), so
 * input near the limit is refused before a request is paid for.
 */
export function checkFitsContext(stdinText: string, model: { id: string; contextWindow: number }): void {
  const estimate = Math.ceil(Buffer.byteLength(stdinText, "utf8") / 3);
  if (estimate <= model.contextWindow) return;
  throw new AppError(
    "usage",
    `stdin is too large for ${model.id}: about ${estimate} tokens, its context window holds ${model.contextWindow}; pipe less (e.g. head, grep or a diff), or choose a model with a larger window (--model)`,
  );
}

/** The stderr line when a silent stdin was given up on. */
export const STDIN_SKIPPED = `no stdin data within ${FIRST_BYTE_WAIT_MS / 1000}s, going on without it (redirect stdin from /dev/null to skip the wait)`;
