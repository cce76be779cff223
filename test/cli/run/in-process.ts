/**
 * `agent ARGS` run in the test's own process: the CLI's entry (runCli, src/cli/program.ts) with the
 * sandbox's directory and environment, stdout and stderr collected, no terminal and an empty stdin.
 * The same command line, flags, renderers and exit codes as bin/agent, without a process start (about
 * 1.3 s each); what only a process has (signals, a closed pipe, fd 0, a TTY) stays in test/e2e.
 */
import { runCli } from "../../../src/cli/program.ts";
import type { RunIo } from "../../../src/cli/shared/io/command-io.ts";
import type { TextSink } from "../../../src/ui/renderer-types.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, type RunOutput } from "../../e2e/support.ts";
import type { FakeLlmServer, FakeRequest } from "../../support/fake-llm-server.ts";

/** A stream that keeps what is written to it. */
function collector(): TextSink & { text(): string } {
  const chunks: string[] = [];
  return {
    write(chunk, callback) {
      chunks.push(chunk);
      if (callback) queueMicrotask(() => callback());
      return true;
    },
    text: () => chunks.join(""),
  };
}

/** An already-closed stdin: the run reads nothing from it, as from /dev/null. */
function emptyStdin(text = ""): ReadableStream<Uint8Array> {
  return new Blob([text]).stream();
}

/** Runs `agent ARGS` in this process with `cwd` and `env`; `stdin` is piped text (default none). */
export async function runInProcess(
  args: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: string },
): Promise<RunOutput> {
  const stdout = collector();
  const stderr = collector();
  const io: RunIo = {
    cwd: options.cwd,
    env: options.env,
    stdout,
    stderr,
    stdin: emptyStdin(options.stdin),
    terminal: { stdin: false, stdout: false, stderr: false },
  };
  const code = await runCli(args, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Runs `agent ARGS` in this process in the sandbox's workspace. */
export function runInSandbox(
  sandbox: E2eSandbox,
  args: string[],
  env: Record<string, string>,
): Promise<RunOutput> {
  return runInProcess(args, { env, cwd: sandbox.workspace });
}

/** The current test's fake server and sandbox, and `agent ARGS` run in this process against them. */
export interface InProcessFixture {
  server: FakeLlmServer;
  sandbox: E2eSandbox;
  /** Runs `agent ARGS` with `env` (default: the sandbox's, keyed for the server); adds the requests it made. */
  run(args: string[], env?: Record<string, string>): Promise<RunOutput & { requests: FakeRequest[] }>;
  /** Runs `agent ARGS` in the sandbox's workspace against the server's Anthropic endpoint, with `extraEnv`. */
  runAgent(args: string[], extraEnv?: Record<string, string>): Promise<RunOutput>;
}

/**
 * A fresh fake server and sandbox per test (test/e2e's freshServerAndSandbox: every scripted turn must
 * have been asked for), set on the returned fixture and handed to `use` before each test.
 */
export function inProcessFixture(
  use: (server: FakeLlmServer, sandbox: E2eSandbox) => void = () => {},
): InProcessFixture {
  const fixture: Partial<InProcessFixture> = {
    async run(args, env) {
      const { server, sandbox } = current();
      const first = server.requests.length;
      const result = await runInSandbox(sandbox, args, env ?? anthropicEnv(sandbox, server));
      return { ...result, requests: server.requests.slice(first) };
    },
    runAgent(args, extraEnv) {
      const { server, sandbox } = current();
      return runInSandbox(sandbox, args, anthropicEnv(sandbox, server, extraEnv));
    },
  };
  const current = () => {
    const { server, sandbox } = fixture;
    if (server === undefined || sandbox === undefined) throw new Error("run is for inside a test");
    return { server, sandbox };
  };
  freshServerAndSandbox((server, sandbox) => {
    fixture.server = server;
    fixture.sandbox = sandbox;
    use(server, sandbox);
  });
  return fixture as InProcessFixture;
}
