/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16) against `bin/agent` used
 * as a person uses it (mcp-conformance-cli.ts: config.yaml with the documented keys, `agent mcp login
 * --headless`, `agent run`, and a new login whenever the run says `run: agent mcp login NAME`). The
 * scenarios where that use differs from calling our connection code directly (mcp-conformance.test.ts):
 * a step-up needed in the middle of a run, a scope that is never granted, a client ID metadata document;
 * and one plain login as a baseline. Runs under Bun (the suite needs Node 22's `fs.globSync`).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

setDefaultTimeout(120_000);

const ROOT = resolve(import.meta.dir, "../../..");
const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const DRIVER = join(ROOT, "test/e2e/mcp/mcp-conformance-cli.ts");

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  details?: Record<string, unknown>;
}

function runScenario(scenario: string): { code: number; checks: Check[]; output: string } {
  const out = mkdtempSync(join(tmpdir(), "mcp-conformance-cli-"));
  try {
    const run = Bun.spawnSync(
      [
        process.execPath,
        SUITE,
        "client",
        "--command",
        `${process.execPath} ${DRIVER}`,
        "--scenario",
        scenario,
        "-o",
        out,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: "1" },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const output = `${run.stdout.toString()}${run.stderr.toString()}`;
    const file = findFile(out, "checks.json");
    const checks = file ? (JSON.parse(readFileSync(file, "utf8")) as Check[]) : [];
    return { code: run.exitCode ?? -1, checks, output };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function findFile(dir: string, name: string): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    const path = join(dir, entry);
    if (entry === name) return path;
    if (statSync(path).isDirectory()) {
      const found = findFile(path, name);
      if (found) return found;
    }
  }
  return undefined;
}

const notPassed = (checks: Check[]) =>
  checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => c.id);

describe("MCP conformance 0.1.16 through bin/agent as a person uses it", () => {
  for (const scenario of ["auth/metadata-default", "auth/basic-cimd", "auth/scope-step-up"]) {
    test(scenario, () => {
      const result = runScenario(scenario);
      if (result.code !== 0) console.error(result.output);
      expect(notPassed(result.checks)).toEqual([]);
      expect(result.checks.some((c) => c.status === "SUCCESS")).toBe(true);
      expect(result.code).toBe(0);
    });
  }

  test("auth/scope-retry-limit: the login stops after two authorizations, saying why", () => {
    const result = runScenario("auth/scope-retry-limit");
    expect(notPassed(result.checks)).toEqual([]);
    expect(result.checks.filter((c) => c.id === "scope-retry-auth-attempt")).toHaveLength(2);
    expect(result.output).toContain(
      "agent: login to conformance failed: it refused scope mcp:admin 2 times with a token granted for it; logging in again will not help",
    );
  });
});
