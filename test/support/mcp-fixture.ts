/** Helpers for tests that use the MCP fixture server (mcp-fixture-server.ts). */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { McpServerConfig } from "../../src/tools/mcp/types.ts";

export const FIXTURE_SERVER = resolve(import.meta.dir, "mcp-fixture-server.ts");

/** A stdio config running the fixture with bun. */
export function fixtureStdio(
  env: Record<string, string> = {},
  extra: Partial<McpServerConfig> & { args?: string[] } = {},
): McpServerConfig {
  return {
    transport: "stdio",
    command: process.execPath,
    env,
    trust: false,
    startupTimeoutMs: 15_000,
    ...extra,
    args: [FIXTURE_SERVER, ...(extra.args ?? [])],
  } as McpServerConfig;
}

/** Starts the fixture over streamable HTTP; resolves to its URL and a way to stop it. */
export function startHttpFixture(
  env: Record<string, string> = {},
): Promise<{ url: string; pid: number; stop(): void }> {
  return startListening([FIXTURE_SERVER, "--http"], env);
}

export const OAUTH_FIXTURE_SERVER = resolve(import.meta.dir, "mcp-oauth-fixture-server.ts");

/** Starts the OAuth-protected fixture (mcp-oauth-fixture-server.ts); FIXTURE_OPEN=1 for one without auth. */
export function startOAuthFixture(
  env: Record<string, string> = {},
): Promise<{ url: string; pid: number; stop(): void }> {
  return startListening([OAUTH_FIXTURE_SERVER], env);
}

/** Runs a bun script whose first stdout line is `listening URL`. */
async function startListening(
  args: string[],
  env: Record<string, string>,
): Promise<{ url: string; pid: number; stop(): void }> {
  const proc = Bun.spawn([process.execPath, ...args], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${args[0]} exited before listening: ${text}`);
    text += new TextDecoder().decode(value);
  }
  const url = /listening (\S+)/.exec(text)?.[1];
  if (!url) throw new Error(`unexpected first line from ${args[0]}: ${text}`);
  return { url, pid: proc.pid, stop: () => proc.kill("SIGKILL") };
}

/** The pids the fixture wrote to its pid file. */
export function fixturePids(file: string): number[] {
  return readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number);
}

/** True while a process with this pid exists (and is not a zombie we could still reap). */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/**
 * The pids still alive once every one has ended or `boundMs` has passed: a SIGKILLed process takes a
 * moment to die, so callers wait for the exit rather than look once (the bound only catches a process
 * that never ends).
 */
export async function survivors(pids: number[], boundMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + boundMs;
  while (pids.some(pidAlive) && Date.now() < deadline) await Bun.sleep(20);
  return pids.filter(pidAlive);
}

/** True once no process has `marker` in its command line (waiting up to `boundMs` for it to exit). */
export async function processGone(marker: string, boundMs = 10_000): Promise<boolean> {
  const running = () =>
    Bun.spawnSync(["pgrep", "-f", marker], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  const deadline = Date.now() + boundMs;
  while (running() && Date.now() < deadline) await Bun.sleep(20);
  return !running();
}
