/**
 * Shared pieces of the `agent run` end-to-end tests: a sandbox per test (temp HOME, XDG config and state,
 * and a workspace), spawning `bin/agent` without a TTY, and reading transcripts and stream-json output.
 */
import { afterEach, beforeEach, expect } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_BIN, makeSandbox, type Sandbox } from "../cli/run-agent.ts";
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from "../support/fake-llm-server.ts";
import { isAlive } from "../tools/helpers.ts";

export { AGENT_BIN };

/** A fake Anthropic key; its `sk-ant-` shape alone is enough for the redactor, so tests pick their own. */
export const TEST_KEY = "sk-ant-test-e2e-00000001";

/** A sandbox plus an empty workspace directory inside it. */
export interface E2eSandbox extends Sandbox {
  workspace: string;
  sessionsDir: string;
}

export function makeE2eSandbox(): E2eSandbox {
  const sandbox = makeSandbox();
  const workspace = join(sandbox.dir, "ws");
  mkdirSync(workspace);
  return { ...sandbox, workspace, sessionsDir: join(sandbox.stateDir, "agent", "sessions") };
}

/** Writes a project agent spec, `.agent/agents/FILE_NAME` in the sandbox's workspace; returns its path. */
export function writeProjectSpec(sandbox: E2eSandbox, fileName: string, yaml: string): string {
  const dir = join(sandbox.workspace, ".agent", "agents");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, fileName);
  writeFileSync(file, yaml);
  return file;
}

/** The environment of a run against the fake server's Anthropic endpoint. */
export function anthropicEnv(
  sandbox: Sandbox,
  server: FakeLlmServer,
  extra: Record<string, string> = {},
): Record<string, string> {
  return sandbox.env({ ANTHROPIC_API_KEY: TEST_KEY, ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ...extra });
}

export interface RunOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** A spawned `bin/agent` (pipes only, so no TTY anywhere) whose output is being collected. */
export interface RunningAgent {
  proc: ReturnType<typeof Bun.spawn>;
  done: Promise<RunOutput>;
}

/**
 * Spawns bin/agent. `stdin`: bytes to pipe in (then closed), `"open"` for a pipe that is never written
 * nor closed (as some CI runners hand over), default none (/dev/null).
 */
export function spawnAgent(
  args: string[],
  options: { env: Record<string, string>; cwd: string; stdin?: string | Uint8Array | "open" },
): RunningAgent {
  const stdin = options.stdin;
  const proc = Bun.spawn([AGENT_BIN, ...args], {
    env: options.env,
    cwd: options.cwd,
    stdin: stdin === undefined ? "ignore" : stdin === "open" ? "pipe" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const done = Promise.all([
    new Response(proc.stdout as ReadableStream<Uint8Array>).text(),
    new Response(proc.stderr as ReadableStream<Uint8Array>).text(),
    proc.exited,
  ]).then(([stdout, stderr, code]) => ({ code, stdout, stderr }));
  return { proc, done };
}

/** Generous: a run that has not ended by then is hung. */
export const HUNG_AFTER_MS = 30_000;

/**
 * The run's output, or a failure naming the hang (the process is killed so the suite goes on); `why` is
 * added to that failure to say what the run was waiting on.
 */
export async function endsOrHung(
  running: RunningAgent,
  hungAfterMs = HUNG_AFTER_MS,
  why = "",
): Promise<RunOutput> {
  const timer = Bun.sleep(hungAfterMs).then(() => null);
  const result = await Promise.race([running.done, timer]);
  if (result === null) {
    running.proc.kill("SIGKILL");
    throw new Error(`the run did not end within ${hungAfterMs} ms${why}`);
  }
  return result;
}

/**
 * A list for the pids of processes a test saw started (daemons the run must reap); after each test any of
 * them still alive is killed, so a failing test leaves nothing running.
 */
export function strayPidsKilledAfterEach(): number[] {
  const pids: number[] = [];
  afterEach(() => {
    for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, "SIGKILL");
  });
  return pids;
}

export function runAgentIn(
  sandbox: E2eSandbox,
  args: string[],
  env: Record<string, string>,
): Promise<RunOutput> {
  return spawnAgent(args, { env, cwd: sandbox.workspace }).done;
}

/** `agent ARGS` run off a terminal in a sandbox of its own, removed after the run. */
export async function runInFreshSandbox(server: FakeLlmServer, args: string[]): Promise<RunOutput> {
  const sandbox = makeE2eSandbox();
  try {
    return await runAgentIn(sandbox, args, anthropicEnv(sandbox, server));
  } finally {
    sandbox.cleanup();
  }
}

/**
 * A new sandbox whose workspace holds one finished session: `agent run GOAL`, answered `answer` by the
 * fake server (what `-c` continues). The caller removes the sandbox (a terminal run given it does).
 */
export async function sandboxAfterRun(
  server: FakeLlmServer,
  goal: string,
  answer: string,
): Promise<E2eSandbox> {
  const sandbox = makeE2eSandbox();
  server.enqueue({ text: answer });
  const first = await runAgentIn(sandbox, ["run", goal], anthropicEnv(sandbox, server));
  expect(first.code).toBe(0);
  return sandbox;
}

/** The content of the last message of the fake server's request `index` (the user's, in a chat), as JSON text. */
export function lastUserText(server: FakeLlmServer, index: number): string {
  const body = server.requests[index]?.body as
    | { messages?: { role: string; content: unknown }[] }
    | undefined;
  const messages = body?.messages ?? [];
  return JSON.stringify(messages[messages.length - 1]?.content);
}

/** Session ids in the sandbox's state directory. */
export function sessionIds(sandbox: E2eSandbox): string[] {
  if (!existsSync(sandbox.sessionsDir)) return [];
  return readdirSync(sandbox.sessionsDir)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => name.slice(0, -".jsonl".length))
    .sort();
}

/** A transcript record, as far as these tests look into it. */
export interface TranscriptRecord {
  kind: string;
  agent: string;
  depth: number;
  parent?: string;
  data: Record<string, unknown>;
}

/** The raw text of the only session of the sandbox (fails when there is not exactly one). */
export function onlyTranscriptText(sandbox: E2eSandbox): string {
  const ids = sessionIds(sandbox);
  if (ids.length !== 1)
    throw new Error(`expected exactly one session, found ${ids.length}: ${ids.join(", ")}`);
  return readFileSync(join(sandbox.sessionsDir, `${ids[0]}.jsonl`), "utf8");
}

/** Parses every line of a JSONL text; a line that does not parse throws with its number and text. */
export function parseJsonLines(text: string): Record<string, unknown>[] {
  if (!text.endsWith("\n"))
    throw new Error(`JSONL text does not end with a newline: ${JSON.stringify(text.slice(-80))}`);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line, index) => {
      try {
        const value: unknown = JSON.parse(line);
        if (value === null || typeof value !== "object" || Array.isArray(value))
          throw new Error("not an object");
        return value as Record<string, unknown>;
      } catch (error) {
        throw new Error(`line ${index + 1} does not parse (${(error as Error).message}): ${line}`);
      }
    });
}

export function transcriptRecords(text: string): TranscriptRecord[] {
  return parseJsonLines(text) as unknown as TranscriptRecord[];
}

/** The tool results (Anthropic `tool_result` blocks) a request sent back to the model, as text. */
export function toolResultsOf(request: FakeRequest | undefined): string[] {
  const body = request?.body as { messages?: { content?: unknown }[] } | undefined;
  const out: string[] = [];
  for (const message of body?.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; content?: unknown }[]) {
      if (block.type === "tool_result") out.push(JSON.stringify(block.content));
    }
  }
  return out;
}

/** Polls until `check` is true (every 25 ms), failing with `what` after `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(25);
  }
}

interface TranscriptMessage {
  role?: string;
  toolCallId?: string;
  parts?: { type?: string; id?: string; name?: string }[];
}

/** `agent/tool-call-id` of every tool call in the transcript's assistant messages that has no tool result. */
export function unansweredToolCalls(records: TranscriptRecord[]): string[] {
  const open = new Map<string, string>();
  for (const record of records) {
    if (record.kind !== "message") continue;
    const message = record.data.message as TranscriptMessage | undefined;
    if (message?.role === "assistant") {
      for (const part of message.parts ?? []) {
        if (part.type === "tool_call") open.set(`${record.agent}/${part.id}`, `${part.name}`);
      }
    } else if (message?.role === "tool") {
      open.delete(`${record.agent}/${message.toolCallId}`);
    }
  }
  return [...open.entries()].map(([key, name]) => `${key} (${name})`);
}

/** True while some process's command line contains `marker` (procps `pgrep -f`). */
export function processRunning(marker: string): boolean {
  return Bun.spawnSync(["pgrep", "-f", marker], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
}

/**
 * Gives each test its own fake server (for tests that make their own sandbox, as the terminal tests do),
 * handed to `use` before the test and closed after it; every scripted turn must have been asked for.
 */
export function freshServer(use: (server: FakeLlmServer) => void): void {
  let server: FakeLlmServer | undefined;
  beforeEach(async () => {
    server = await startFakeLlmServer();
    use(server);
  });
  afterEach(async () => {
    const pending = server?.pending();
    await server?.close();
    expect(pending).toBe(0);
  });
}

/** The current test's fake server and sandbox (set before each test by {@link freshServerAndSandbox}). */
export interface E2eFixture {
  server: FakeLlmServer;
  sandbox: E2eSandbox;
  /** Runs bin/agent in the sandbox's workspace against the server's Anthropic endpoint ({@link anthropicEnv}). */
  runAgent(args: string[], extraEnv?: Record<string, string>): Promise<RunOutput>;
}

/**
 * Gives each test its own fake server (turns left by a failing test never reach the next) and sandbox,
 * set on the returned fixture and handed to `use` before the test; after it, both are closed and every
 * scripted turn must have been asked for (the run went the way the test scripted it).
 */
export function freshServerAndSandbox(
  use: (server: FakeLlmServer, sandbox: E2eSandbox) => void = () => {},
): E2eFixture {
  const fixture: Partial<E2eFixture> = {
    runAgent: (args, extraEnv) => {
      const { server, sandbox } = fixture;
      if (server === undefined || sandbox === undefined) throw new Error("runAgent is for inside a test");
      return runAgentIn(sandbox, args, anthropicEnv(sandbox, server, extraEnv));
    },
  };
  beforeEach(async () => {
    fixture.server = await startFakeLlmServer();
    fixture.sandbox = makeE2eSandbox();
    use(fixture.server, fixture.sandbox);
  });
  afterEach(async () => {
    const pending = fixture.server?.pending();
    await fixture.server?.close();
    fixture.sandbox?.cleanup();
    expect(pending).toBe(0);
  });
  return fixture as E2eFixture;
}
