/**
 * The process's stdout and stderr without Node streams (src/cli/shared/io/std-streams.ts): every byte in
 * order to a reader that falls behind, a closed pipe that marks the stream broken instead of throwing,
 * and isatty answers for pipes and files. Each case runs in a child process, since the sinks are the
 * child's fds.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BunFile } from "bun";

const MODULE = join(import.meta.dir, "../../../../src/cli/shared/io/std-streams.ts");

function child(script: string, stdout: "pipe" | BunFile = "pipe", stdin: "pipe" | "ignore" = "ignore") {
  return Bun.spawn(
    [process.execPath, "-e", `const io = await import(${JSON.stringify(MODULE)});\n${script}`],
    {
      stdin,
      stdout,
      stderr: "pipe",
    },
  );
}

test("a reader that falls behind gets every byte, in order", async () => {
  // 4 MiB in 2,000 writes, far more than a pipe holds: most writes find the pipe full.
  const proc = child(`
    const line = (i) => String(i).padStart(6, "0") + "x".repeat(2090) + "\\n";
    for (let i = 0; i < 2000; i++) io.stdout.write(line(i));
    await io.stdout.flushed();
    process.exit(0);
  `);
  // Not read until the child has written everything it can without a reader.
  const [text, code] = await Promise.all([
    new Response(proc.stdout as ReadableStream<Uint8Array>).text(),
    proc.exited,
  ]);
  expect(code).toBe(0);
  const lines = text.split("\n").filter(Boolean);
  expect(lines).toHaveLength(2000);
  expect(lines.every((line, i) => line.startsWith(String(i).padStart(6, "0")) && line.length === 2096)).toBe(
    true,
  );
});

test("a closed pipe marks stdout broken: later writes are dropped, nothing throws", async () => {
  // The child's stdout is a pipe to a reader that closes its end and then says so on stderr ("gone");
  // only then does the child get "go" on stdin and write. Closing a pipe we read ourselves (cancelling
  // the stream) may take effect after the child's writes.
  const script = `
    const io = await import(${JSON.stringify(MODULE)});
    const errors = [];
    io.stdout.onError((error) => errors.push(error.code));
    for await (const _ of Bun.stdin.stream()) break;
    for (let i = 0; i < 3; i++) io.stdout.write("after the reader left\\n");
    await io.stdout.flushed();
    io.stderr.write(JSON.stringify({ broken: io.stdout.broken, errors }) + "\\n");
    await io.stderr.flushed();
    process.exit(0);
  `;
  const proc = Bun.spawn(
    ["bash", "-c", 'set -o pipefail; "$0" -e "$1" | { exec 0<&-; echo gone >&2; }', process.execPath, script],
    { stdin: "pipe", stdout: "ignore", stderr: "pipe" },
  );
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let stderr = "";
  while (!stderr.includes("gone\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the reader never said it had gone: ${stderr}`);
    stderr += decoder.decode(value, { stream: true });
  }
  const stdin = proc.stdin as import("bun").FileSink;
  stdin.write("go\n");
  await stdin.end();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stderr += decoder.decode(value, { stream: true });
  }
  // The pipeline's status is the child's (pipefail; the reader exits 0).
  expect(await proc.exited).toBe(0);
  expect(JSON.parse(stderr.replace("gone\n", ""))).toEqual({ broken: true, errors: ["EPIPE"] });
});

test("isTerminal: a pipe and a file are not terminals", async () => {
  const dir = mkdtempSync(join(tmpdir(), "std-streams-"));
  try {
    const file = join(dir, "out");
    const proc = child(
      `io.stderr.write(JSON.stringify([io.isTerminal(0), io.isTerminal(1), io.isTerminal(2)]));`,
      Bun.file(file),
      "pipe",
    );
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(JSON.parse(stderr)).toEqual([false, false, false]);
    expect(readFileSync(file, "utf8")).toBe("");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
