/**
 * `--sandbox-required` as a CI job uses it: where bubblewrap is missing the run refuses with exit 3 and
 * says why, before any model call, instead of running commands unsandboxed; `--sandbox off` stays the
 * user's explicit choice. (The same setting as config `sandbox.required: true`, docs/security.md.)
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { inProcessFixture } from "./in-process.ts";

const fixture = inProcessFixture();

/** A PATH with no bwrap on it (an empty folder of the test's own). */
function pathWithoutBwrap(): string {
  const bin = join(fixture.sandbox.dir, "empty-bin");
  mkdirSync(bin, { recursive: true });
  return bin;
}

describe("agent run --sandbox-required", () => {
  test("without bwrap: exit 3 naming the missing bubblewrap, and no model call", async () => {
    const result = await fixture.run(["run", "-o", "json", "--sandbox-required", "list the files"], {
      ...fixture.sandbox.env({}),
      PATH: pathWithoutBwrap(),
      ANTHROPIC_API_KEY: "test",
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("the sandbox is unavailable: bwrap (bubblewrap) was not found on PATH");
    expect(result.requests).toHaveLength(0);
  });

  test("--sandbox off with --sandbox-required: the explicit off wins, the run goes on", async () => {
    fixture.server.enqueue({ text: "Done." });
    const result = await fixture.run(["run", "--sandbox", "off", "--sandbox-required", "say done"], {
      ...fixture.sandbox.env({}),
      PATH: pathWithoutBwrap(),
      ANTHROPIC_API_KEY: "test",
      ANTHROPIC_BASE_URL: fixture.server.anthropicBaseUrl,
    });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "Done.\n" });
  });
});
