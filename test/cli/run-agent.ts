/**
 * Spawns bin/agent as a user would (no TTY), with an explicit minimal environment: PATH, and HOME,
 * XDG_CONFIG_HOME and XDG_STATE_HOME pointing at a fresh temp directory, so the developer's own config
 * and keys never leak in. Extra variables (keys, base URLs) are passed per call.
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "../support/fake-llm-server.ts";

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
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** A fake LLM server and a sandbox shared by one test file. */
export interface CliFixture {
  server: FakeLlmServer;
  sandbox: Sandbox;
}

/** Registers hooks that start the server and sandbox before the file's tests and remove them after. */
export function withFakeServerAndSandbox(): CliFixture {
  const fixture = {} as CliFixture;
  beforeAll(async () => {
    fixture.server = await startFakeLlmServer();
    fixture.sandbox = makeSandbox();
  });
  afterAll(async () => {
    await fixture.server.close();
    fixture.sandbox.cleanup();
  });
  return fixture;
}
