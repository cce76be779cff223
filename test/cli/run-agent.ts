/**
 * Spawns bin/agent as a user would (no TTY), with an explicit minimal environment: PATH, and HOME,
 * XDG_CONFIG_HOME and XDG_STATE_HOME pointing at a fresh temp directory, so the developer's own config
 * and keys never leak in. Extra variables (keys, base URLs) are passed per call.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "../support/fake-llm-server.ts";
import { processOutput } from "../support/process-output.ts";

export const AGENT_BIN = resolve(import.meta.dir, "../../bin/agent");

export interface AgentResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  dir: string;
  home: string;
  configDir: string;
  stateDir: string;
  env(extra?: Record<string, string>): Record<string, string>;
  cleanup(): void;
}

/** A temp HOME with empty XDG config and state directories. */
export function makeSandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), "agent-cli-"));
  const home = join(dir, "home");
  const configDir = join(dir, "config");
  const stateDir = join(dir, "state");
  for (const d of [home, configDir, stateDir]) mkdirSync(d, { recursive: true });
  return {
    dir,
    home,
    configDir,
    stateDir,
    env: (extra = {}) => ({
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: configDir,
      XDG_STATE_HOME: stateDir,
      ...extra,
    }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `bin/agent args...` with `stdin` piped in (or /dev/null), collecting its output. */
export async function runAgent(
  args: string[],
  options: { env: Record<string, string>; stdin?: string; cwd?: string; bin?: string[] },
): Promise<AgentResult> {
  const proc = Bun.spawn([...(options.bin ?? [AGENT_BIN]), ...args], {
    env: options.env,
    cwd: options.cwd ?? process.cwd(),
    stdin: options.stdin !== undefined ? new Blob([options.stdin]) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  return processOutput(proc);
}

/** A fake LLM server and a sandbox shared by one test file. */
export interface CliFixture {
  server: FakeLlmServer;
  sandbox: Sandbox;
  /**
   * Lets the current test leave scripted turns unserved: a run that may end before its request is
   * sent (a timeout under load) scripts a turn it cannot be sure to use.
   */
  mayLeaveTurns(): void;
}

/**
 * Registers hooks that start the server and sandbox before the file's tests and remove them after.
 * After each test the turns it left unserved are dropped, so they can never answer the next test, and
 * the test fails for leaving them unless it called mayLeaveTurns().
 */
export function withFakeServerAndSandbox(): CliFixture {
  let leftoversAllowed = false;
  const fixture = {
    mayLeaveTurns: () => {
      leftoversAllowed = true;
    },
  } as CliFixture;
  beforeAll(async () => {
    fixture.server = await startFakeLlmServer();
    fixture.sandbox = makeSandbox();
  });
  beforeEach(() => {
    leftoversAllowed = false;
  });
  afterEach(() => {
    const left = fixture.server.pending();
    fixture.server.clear();
    if (!leftoversAllowed) expect(left).toBe(0);
  });
  afterAll(async () => {
    await fixture.server.close();
    fixture.sandbox.cleanup();
  });
  return fixture;
}
