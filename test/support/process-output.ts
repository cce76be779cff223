/** What a finished child process printed and how it ended (spawned with stdout and stderr piped). */
export interface ProcessOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Reads both pipes to their end while waiting for the exit, so a full pipe never stalls the child. */
export async function processOutput(proc: {
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  exited: Promise<number>;
}): Promise<ProcessOutput> {
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}
