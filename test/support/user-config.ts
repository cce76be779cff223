/**
 * A user config directory per test for the config loader's tests: a fresh temp `XDG_CONFIG_HOME` before
 * each test (removed after it), the environment naming it, and helpers that write its
 * `agent/config.yaml` and catch the error loading it gives.
 */
import { afterEach, beforeEach } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../src/kernel/index.ts";
import { loadConfig } from "../../src/sdk/config/config.ts";

export interface UserConfigHome {
  /** The current test's XDG_CONFIG_HOME. */
  readonly home: string;
  /** `{ XDG_CONFIG_HOME: home }`. */
  readonly env: Record<string, string>;
  /** Writes `home/agent/config.yaml` and returns its path. */
  write(text: string): string;
  /** Writes the config and returns the AppError loading it gives (anything else fails the test). */
  failure(text: string): Promise<AppError>;
}

/** Call at the top of a test file; `prefix` names the temp directories. */
export function userConfigHomePerTest(prefix: string): UserConfigHome {
  let home = "";
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));
  const fixture: UserConfigHome = {
    get home() {
      return home;
    },
    get env() {
      return { XDG_CONFIG_HOME: home };
    },
    write(text) {
      mkdirSync(join(home, "agent"), { recursive: true });
      const file = join(home, "agent", "config.yaml");
      writeFileSync(file, text);
      return file;
    },
    async failure(text) {
      fixture.write(text);
      const error = await loadConfig(fixture.env).catch((e: unknown) => e);
      if (error instanceof AppError) return error;
      throw new Error(`expected a config error, got ${String(error)}`);
    },
  };
  return fixture;
}
