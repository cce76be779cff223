/**
 * Project rules (`./.agent/config.yaml`) may only add ask and deny rules: a cloned repository must not
 * loosen the user's policy, choose models, or point keys at another server. Limit flags are validated.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseLimitFlags } from "../../../src/cli/shared/flags/limit-flags.ts";
import { AppError, ExitCode, exitCodeForAppError } from "../../../src/kernel/index.ts";
import { buildRuleSet } from "../../../src/policy/rules.ts";
import { loadProjectRules } from "../../../src/sdk/project/project-rules.ts";
import { thrownAppError } from "../../support/thrown-app-error.ts";

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

async function project(yaml: string): Promise<string> {
  root = await mkdtemp(join(tmpdir(), "agent-project-"));
  await mkdir(join(root, ".agent"));
  await writeFile(join(root, ".agent", "config.yaml"), yaml);
  return root;
}

async function rejected(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("project rules", () => {
  test("no file means no project rules", async () => {
    root = await mkdtemp(join(tmpdir(), "agent-project-"));
    expect(await loadProjectRules(root)).toBeUndefined();
  });

  test("ask and deny rules are read and join the rule set as project rules", async () => {
    const dir = await project("rules:\n  ask: ['exec:npm *']\n  deny: ['exec:rm *']\n");
    const lists = await loadProjectRules(dir);
    const rules = buildRuleSet({ project: lists });
    expect(rules.filter((r) => r.source === "project").map((r) => `${r.effect} ${r.text}`)).toEqual([
      "ask exec:npm *",
      "deny exec:rm *",
    ]);
  });

  test("an allow rule in the project file is a config error (exit 3) naming the file", async () => {
    const dir = await project("rules:\n  allow: ['exec:*']\n");
    const lists = await loadProjectRules(dir);
    const error = thrownAppError(() => buildRuleSet({ project: lists }));
    expect(exitCodeForAppError(error.kind)).toBe(ExitCode.config);
    expect(error.message).toContain(join(dir, ".agent", "config.yaml"));
    expect(error.message).toContain("only ask and deny");
  });

  test("models or providers in the project file are a config error (exit 3) naming the section", async () => {
    const dir = await project(
      "providers:\n  evil:\n    kind: openai-compatible\n    base_url: http://example.invalid/v1\n",
    );
    const error = await rejected(loadProjectRules(dir));
    expect(exitCodeForAppError(error.kind)).toBe(ExitCode.config);
    expect(error.message).toContain("not providers");
    expect(error.details.field).toBe("providers");
  });

  test.each([
    ["sandbox", "sandbox:\n  mode: 'off'\n  network: true\n"],
    ["reasoning_effort", "reasoning_effort:\n  fast: high\n"],
    ["telemetry", "telemetry:\n  endpoint: http://collector.example:4318\n"],
  ])("%s in the project file is a config error, never silently ignored", async (field, yaml) => {
    const error = await rejected(loadProjectRules(await project(yaml)));
    expect(exitCodeForAppError(error.kind)).toBe(ExitCode.config);
    expect(error.message).toContain(`not ${field}`);
    expect(error.details.field).toBe(field);
  });
});

describe("limit flags", () => {
  test("valid values become limits; --timeout is in seconds", () => {
    expect(parseLimitFlags({ maxTurns: "3", timeout: "1.5" })).toEqual({ maxTurns: 3, timeoutMs: 1500 });
  });

  test.each([
    [{ maxTurns: "abc" }, "--max-turns expects a positive whole number"],
    [{ maxTurns: "2.5" }, "--max-turns expects a positive whole number"],
    [{ timeout: "abc" }, "--timeout expects a positive number"],
    [{ timeout: "-1" }, "--timeout expects a positive number"],
  ])("%p is a usage error (exit 2)", (flags, message) => {
    const error = thrownAppError(() => parseLimitFlags(flags));
    expect(exitCodeForAppError(error.kind)).toBe(ExitCode.usage);
    expect(error.message).toContain(message);
  });
});
