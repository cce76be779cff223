import { expect } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "./fake-llm-server.ts";

/**
 * A temp directory for a library session (ws/, config/agent/, state/, home/) and the environment that
 * points HOME and the XDG folders into it and the Anthropic provider at the fake server with `apiKey`.
 */
export function makeLibraryDirs(
  prefix: string,
  server: FakeLlmServer,
  apiKey: string,
): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const d of ["ws", "config", "config/agent", "state", "home"]) mkdirSync(join(dir, d));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_STATE_HOME: join(dir, "state"),
    ANTHROPIC_API_KEY: apiKey,
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  };
  return { dir, env };
}

/** A library test's fake server and the dirs its session uses (see {@link makeLibraryDirs}). */
export interface LibraryFixture {
  server: FakeLlmServer;
  dir: string;
  env: Record<string, string>;
}

/** Starts the fake server and makes the dirs pointing at it: a library test's beforeEach. */
export async function openLibraryFixture(prefix: string, apiKey: string): Promise<LibraryFixture> {
  const server = await startFakeLlmServer();
  return { server, ...makeLibraryDirs(prefix, server, apiKey) };
}

/** Closes the server and removes the dirs; fails the test when a scripted reply was left unused. */
export async function closeLibraryFixture({
  server,
  dir,
}: Pick<LibraryFixture, "server" | "dir">): Promise<void> {
  const pending = server.pending();
  server.clear();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  expect(pending).toBe(0);
}
