/**
 * Writes of git metadata from the attacker's side: a scripted model, under broad allow rules
 * (`write_file:**`, `edit_file:**`, `apply_patch:**`) and the default `--on-ask deny`, tries to plant
 * hooks or a config, or to turn the workspace into a repository. Each must ask (and so not happen).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { flagApprover } from "../../src/policy/approvers.ts";
import { Workspace } from "../../src/tools/workspace.ts";
import { type Harness, harness, spec, toolResultsIn } from "../agents/harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const BROAD = ["write_file:**", "edit_file:**", "apply_patch:**"];

async function modelCalls(
  name: string,
  args: Record<string, unknown>,
  prepare: (dir: string) => void = () => {},
) {
  h = await harness({
    specs: [spec("root", ["write_file", "edit_file", "apply_patch"])],
    approver: flagApprover("deny"),
    allow: BROAD,
    script: { queue: [{ toolCalls: [{ name, arguments: args }] }, { text: "done" }] },
  });
  prepare(h.dir);
  // apply_patch is what OpenAI models are offered in place of edit_file.
  const openai = name === "apply_patch";
  await h.run(
    "change things",
    openai ? { resolveModel: (m) => ({ provider: "openai", providerName: "openai", id: `test-${m}` }) } : {},
  );
  const [result] = toolResultsIn(h, 1);
  if (!result) throw new Error("no tool result");
  return result;
}

const NEEDS_APPROVAL = "needs approval";
const file = (rel: string) => path.join(h!.dir, rel);

/** The workspace root is already a bare repository: HEAD, objects/ and refs/ at the top. */
function bareRoot(dir: string): void {
  writeFileSync(path.join(dir, "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(path.join(dir, "objects"));
  mkdirSync(path.join(dir, "refs"));
  writeFileSync(path.join(dir, "config"), "[core]\n\tbare = true\n");
}

function gitDir(dir: string): void {
  mkdirSync(path.join(dir, ".git", "hooks"), { recursive: true });
  writeFileSync(path.join(dir, ".git", "config"), "[core]\n");
  writeFileSync(path.join(dir, "a.txt"), "a\n");
}

describe("git metadata asks even under write_file:** and friends", () => {
  test("write_file HEAD at the root (turning the workspace into a repository) asks", async () => {
    const result = await modelCalls("write_file", { path: "HEAD", content: "ref: refs/heads/main\n" });
    expect(result.content).toContain(NEEDS_APPROVAL);
    expect(existsSync(file("HEAD"))).toBe(false);
  });

  test("write_file HEAD in a subfolder asks", async () => {
    const result = await modelCalls("write_file", { path: "sub/HEAD", content: "ref: refs/heads/main\n" });
    expect(result.content).toContain(NEEDS_APPROVAL);
    expect(existsSync(file("sub/HEAD"))).toBe(false);
  });

  for (const rel of ["config", "hooks/post-checkout", "refs/heads/x", "objects/info/alternates"]) {
    test(`write_file ${rel} of a bare repository at the root asks`, async () => {
      const result = await modelCalls(
        "write_file",
        { path: rel, content: "[core]\n\tpager = sh\n" },
        bareRoot,
      );
      expect(result.content).toContain(NEEDS_APPROVAL);
      expect(existsSync(file(rel)) && readFileSync(file(rel), "utf8").includes("pager")).toBe(false);
    });
  }

  test("write_file .git as a file pointing at another git dir asks", async () => {
    const result = await modelCalls("write_file", { path: ".git", content: "gitdir: /tmp/elsewhere\n" });
    expect(result.content).toContain(NEEDS_APPROVAL);
    expect(existsSync(file(".git"))).toBe(false);
  });

  test("edit_file of .git/config asks", async () => {
    const result = await modelCalls(
      "edit_file",
      { path: ".git/config", old_string: "[core]", new_string: "[core]\n\tfsmonitor = ./x" },
      gitDir,
    );
    expect(result.content).toContain(NEEDS_APPROVAL);
    expect(readFileSync(file(".git/config"), "utf8")).toBe("[core]\n");
  });

  test("apply_patch moving a file into .git/hooks asks", async () => {
    const patch =
      "*** Begin Patch\n*** Update File: a.txt\n*** Move to: .git/hooks/pre-commit\n@@\n-a\n+a\n*** End Patch";
    const result = await modelCalls("apply_patch", { patch }, gitDir);
    expect(result.content).toContain(NEEDS_APPROVAL);
    expect(existsSync(file(".git/hooks/pre-commit"))).toBe(false);
    expect(existsSync(file("a.txt"))).toBe(true);
  });

  test("apply_patch deleting .git/config asks", async () => {
    const patch = "*** Begin Patch\n*** Delete File: .git/config\n*** End Patch";
    const result = await modelCalls("apply_patch", { patch }, gitDir);
    expect(result.content).toContain(NEEDS_APPROVAL);
    expect(existsSync(file(".git/config"))).toBe(true);
  });

  test("ordinary files under the same rules are written without asking", async () => {
    const result = await modelCalls("write_file", { path: "src/config/app.json", content: "{}" }, bareRoot);
    expect(result.isError).toBe(false);
    expect(readFileSync(file("src/config/app.json"), "utf8")).toBe("{}");
  });
});

describe("Workspace.isSensitiveChange", () => {
  test("names git metadata case-insensitively, and git dir entries only beside a HEAD", async () => {
    h = await harness({ specs: [spec("root", [])], script: { queue: [] } });
    const dir = h.dir;
    const ws = await Workspace.open(dir);
    const at = (rel: string) => ws.isSensitiveChange(path.join(ws.root, rel));
    expect(await at(".GIT/config")).toBe(true);
    expect(await at("vendor/.Git/hooks/x")).toBe(true);
    expect(await at(".gitmodules")).toBe(true);
    expect(await at("head")).toBe(true);
    expect(await at("src/components/Head/index.tsx")).toBe(false);
    expect(await at("config")).toBe(false);
    expect(await at("refs/x")).toBe(false);
    mkdirSync(path.join(dir, "repo.git"));
    writeFileSync(path.join(dir, "repo.git", "HEAD"), "ref: refs/heads/main\n");
    expect(await at("repo.git/config")).toBe(true);
    expect(await at("repo.git/hooks/pre-commit")).toBe(true);
    expect(await at("repo.git/README")).toBe(false);
    expect(await at("config")).toBe(false);
  });

  test("a root whose own path has a component named like git metadata is not sensitive as a whole", async () => {
    h = await harness({ specs: [spec("root", [])], script: { queue: [] } });
    const main = path.join(h.dir, "main");
    const extra = path.join(h.dir, "HEAD", "project");
    mkdirSync(main);
    mkdirSync(extra, { recursive: true });
    const ws = await Workspace.open(main, { extraRoots: [extra] });
    const other = ws.roots[1]!;
    expect(await ws.isSensitiveChange(path.join(other, "src", "a.ts"))).toBe(false);
    expect(await ws.isSensitiveChange(path.join(other, ".git", "config"))).toBe(true);
  });

  test("the user's own files are those of the environment the workspace opened with, found when first asked", async () => {
    h = await harness({ specs: [spec("root", [])], script: { queue: [] } });
    const home = path.join(h.dir, "home");
    mkdirSync(path.join(home, ".ssh"), { recursive: true });
    const env: Record<string, string | undefined> = { HOME: home };
    const ws = await Workspace.open(home, { env });
    // A later change of the environment does not move them.
    env.HOME = path.join(h.dir, "elsewhere");
    expect(await ws.isSensitiveChange(path.join(ws.root, ".bashrc"))).toBe(true);
    expect(await ws.isSensitiveChange(path.join(ws.root, ".ssh", "config"))).toBe(true);
    expect(await ws.isSensitiveChange(path.join(ws.root, "notes.txt"))).toBe(false);
    expect(ws.userFiles).toContain(path.join(ws.root, ".ssh"));
    // A workspace derived from it names the same files.
    expect(ws.withSandbox(undefined).userFiles).toEqual(ws.userFiles);
  });
});
