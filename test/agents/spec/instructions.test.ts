import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadInstructions, systemPromptWith } from "../../../src/agents/spec/instructions.ts";

/** A temp tree: home/ (HOME), config/agent/ (XDG_CONFIG_HOME), repo/ (with .git) and repo/pkg/app. */
let dir: string;
let repo: string;
let app: string;
let env: Record<string, string>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-instr-"));
  repo = join(dir, "home", "repo");
  app = join(repo, "pkg", "app");
  mkdirSync(app, { recursive: true });
  mkdirSync(join(repo, ".git"));
  mkdirSync(join(dir, "config", "agent"), { recursive: true });
  env = { HOME: join(dir, "home"), XDG_CONFIG_HOME: join(dir, "config") };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("loadInstructions", () => {
  test("user file first, then repository root down to the workspace; CLAUDE.md only where no AGENTS.md", async () => {
    writeFileSync(join(dir, "config", "agent", "AGENTS.md"), "user prefs");
    writeFileSync(join(repo, "AGENTS.md"), "root rules");
    writeFileSync(join(repo, "CLAUDE.md"), "root claude (ignored: AGENTS.md wins)");
    writeFileSync(join(repo, "pkg", "CLAUDE.md"), "pkg claude");
    writeFileSync(join(app, "AGENTS.md"), "app rules");
    // Above the repository root: never read.
    writeFileSync(join(dir, "home", "AGENTS.md"), "outside the repo");
    const found = await loadInstructions({ workspaceRoot: app, env });
    expect(found.files.map((f) => f.path)).toEqual([
      join(dir, "config", "agent", "AGENTS.md"),
      join(repo, "AGENTS.md"),
      join(repo, "pkg", "CLAUDE.md"),
      join(app, "AGENTS.md"),
    ]);
    expect(found.warnings).toEqual([]);
    const block = found.block;
    expect(block).toContain(`<instructions path="${join(app, "AGENTS.md")}">\napp rules\n</instructions>`);
    const order = ["user prefs", "root rules", "pkg claude", "app rules"].map((t) => block.indexOf(t));
    expect(order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] as number)))).toBe(true);
    expect(block).not.toContain("ignored");
    expect(block).not.toContain("outside the repo");
  });

  test("without a repository the search stops below $HOME", async () => {
    rmSync(join(repo, ".git"), { recursive: true });
    writeFileSync(join(dir, "home", "AGENTS.md"), "home file");
    writeFileSync(join(repo, "AGENTS.md"), "repo file");
    const found = await loadInstructions({ workspaceRoot: app, env });
    expect(found.files.map((f) => f.path)).toEqual([join(repo, "AGENTS.md")]);
  });

  test("without a repository, HOME as the workspace is searched alone, never its parents", async () => {
    rmSync(join(repo, ".git"), { recursive: true });
    writeFileSync(join(dir, "AGENTS.md"), "above home");
    writeFileSync(join(dir, "home", "AGENTS.md"), "home file");
    const found = await loadInstructions({ workspaceRoot: join(dir, "home"), env });
    expect(found.files.map((f) => f.path)).toEqual([join(dir, "home", "AGENTS.md")]);
  });

  test("without a repository and outside HOME, the workspace alone: a parent's file is not read", async () => {
    const outside = join(dir, "tarball", "unpacked");
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(dir, "tarball", "AGENTS.md"), "parent file");
    writeFileSync(join(outside, "AGENTS.md"), "own file");
    const found = await loadInstructions({ workspaceRoot: outside, env });
    expect(found.files.map((f) => f.path)).toEqual([join(outside, "AGENTS.md")]);
  });

  test("a FIFO, a directory or a symlink out of the tree is a warning, and CLAUDE.md is not used instead", async () => {
    Bun.spawnSync(["mkfifo", join(app, "AGENTS.md")]);
    writeFileSync(join(app, "CLAUDE.md"), "fallback must not be read");
    mkdirSync(join(repo, "AGENTS.md"));
    writeFileSync(join(dir, "secret.md"), "secret");
    symlinkSync(join(dir, "secret.md"), join(repo, "pkg", "AGENTS.md"));
    const found = await loadInstructions({ workspaceRoot: app, env });
    expect(found.files).toEqual([]);
    expect(found.block).toBe("");
    expect(found.warnings).toHaveLength(3);
    expect(found.warnings.join("\n")).toContain(`${join(app, "AGENTS.md")} skipped: a FIFO`);
    expect(found.warnings.join("\n")).toContain("a directory");
    expect(found.warnings.join("\n")).toContain("a symlink out of the workspace");
  });

  test("over the cap, the farthest files are cut first and the block says what was cut", async () => {
    writeFileSync(join(repo, "AGENTS.md"), "R".repeat(300));
    writeFileSync(join(repo, "pkg", "AGENTS.md"), "P".repeat(300));
    writeFileSync(join(app, "AGENTS.md"), "A".repeat(300));
    const found = await loadInstructions({ workspaceRoot: app, env, cap: 400 });
    expect(found.files.map((f) => f.path)).toEqual([join(repo, "pkg", "AGENTS.md"), join(app, "AGENTS.md")]);
    expect(found.files[1]?.text).toBe("A".repeat(300));
    expect(found.files[0]?.text).toBe("P".repeat(100));
    expect(found.block).toContain(`${join(repo, "AGENTS.md")}: left out (300 bytes)`);
    expect(found.block).toContain(`${join(repo, "pkg", "AGENTS.md")}: cut to its first 100 of 300 bytes`);
    expect(found.warnings).toHaveLength(2);
  });

  test("systemPromptWith appends the block unless the spec opts out", async () => {
    writeFileSync(join(app, "AGENTS.md"), "app rules");
    const found = await loadInstructions({ workspaceRoot: app, env });
    expect(systemPromptWith("base", found, false)).toBe(`base\n\n${found.block}`);
    expect(systemPromptWith("base", found, true)).toBe("base");
  });
});
