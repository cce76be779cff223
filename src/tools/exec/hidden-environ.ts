/**
 * Keeps the provider keys out of reach of the commands the agent runs when no sandbox hides the agent's
 * process from them. On Linux, /proc/PID/environ shows the bytes between the process's `env_start` and
 * `env_end` (proc(5): "/proc/pid/environ ... the initial environment that was set when the currently
 * executing program was started"; fields 50 and 51 of /proc/pid/stat, "env_start", "env_end", since
 * Linux 3.5), and any process of the same user may read it (ptrace access mode PTRACE_MODE_READ_FSCREDS,
 * proc(5) and ptrace(2)): a command run without bubblewrap reads `cat /proc/$PPID/environ`. Changing
 * `process.env` changes none of those bytes. So at start the values of every secret-looking variable
 * (`looksSecret`: ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, GOOGLE_API_KEY, *_TOKEN, ...) and of
 * the names a caller adds (config's `api_key_env`) are overwritten in place with spaces: the process keeps
 * them in `process.env` (Bun copied the environment into its own map at start), the kernel's view no
 * longer holds them. The same trick PostgreSQL's ps_status.c uses on the argv/environ area to set its
 * process titles. Nothing is re-executed: it costs one read of /proc/self/stat and a scan of the block.
 *
 * The bytes are reached through Bun's FFI (`toArrayBuffer` over the block's address), loaded on demand so
 * the library still loads under Node, where nothing is hidden (docs/library.md).
 *
 * Limits, stated in docs/security.md: Linux only (macOS has no /proc; `ps -E` there reads the same area
 * through sysctl KERN_PROCARGS2, not handled here); a process started before this ran with the keys
 * (the user's shell, a CI step's shell) still shows them; root reads process memory anyway.
 */

import { readFileSync } from "node:fs";
import { looksSecret } from "../../kernel/text/redact.ts";

/** Fields of /proc/self/stat after the `(comm)` field, counted from field 3 (proc(5)). */
const ENV_START_FIELD = 50;
const ENV_END_FIELD = 51;
const SPACE = 0x20;
const EQUALS = 0x3d;

/**
 * Overwrites, in this process's initial environment block, the value of every secret-looking variable
 * and of every name in `names`. Resolves to how many values it hid (0 off Linux, off Bun, or without /proc).
 */
export async function hideSecretsFromEnviron(names: Iterable<string> = []): Promise<number> {
  if (process.platform !== "linux" || typeof Bun === "undefined") return 0;
  const { toArrayBuffer } = await import("bun:ffi");
  const block = environBlock(toArrayBuffer);
  if (block === undefined) return 0;
  const extra = new Set(names);
  const decoder = new TextDecoder("latin1");
  let hidden = 0;
  let start = 0;
  while (start < block.length) {
    let end = block.indexOf(0, start);
    if (end === -1) end = block.length;
    const equals = block.indexOf(EQUALS, start);
    if (equals !== -1 && equals < end) {
      const name = decoder.decode(block.subarray(start, equals));
      if ((looksSecret(name) || extra.has(name)) && end > equals + 1 && block[equals + 1] !== SPACE) {
        block.fill(SPACE, equals + 1, end);
        hidden++;
      }
    }
    start = end + 1;
  }
  return hidden;
}

/** The writable bytes of this process's initial environment, as /proc/self/environ shows them. */
function environBlock(
  toArrayBuffer: (pointer: number, offset: number, length: number) => ArrayBuffer,
): Uint8Array | undefined {
  let stat: string;
  try {
    stat = readFileSync("/proc/self/stat", "latin1");
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: fields are counted after its last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const envStart = Number(fields[ENV_START_FIELD - 3]);
  const envEnd = Number(fields[ENV_END_FIELD - 3]);
  if (
    !Number.isSafeInteger(envStart) ||
    !Number.isSafeInteger(envEnd) ||
    envEnd <= envStart ||
    envStart === 0
  )
    return undefined;
  return new Uint8Array(toArrayBuffer(envStart, 0, envEnd - envStart));
}
