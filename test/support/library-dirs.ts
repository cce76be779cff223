import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeLlmServer } from "./fake-llm-server.ts";

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
