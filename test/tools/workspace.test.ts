import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { editFileTool } from "../../src/tools/files/edit-file.ts";
import { readFileTool } from "../../src/tools/files/read-file.ts";
import { writeFileTool } from "../../src/tools/files/write-file.ts";
import { Workspace, WorkspaceError } from "../../src/tools/workspace.ts";
import { cleanup, contextFor, tempDir } from "./helpers.ts";

// Layout: <base>/p is the workspace; <base>/p-evil and <base>/outside sit beside it.
let base: string;
let root: string;
let ws: Workspace;

beforeAll(async () => {
  base = await tempDir("agent-ws-");
  root = join(base, "p");
  await mkdir(join(root, "src"), { recursive: true });
  await mkdir(join(base, "p-evil"));
  await mkdir(join(base, "outside"));
  await writeFile(join(root, "src", "a.ts"), "export const a = 1;\n");
  await writeFile(join(base, "outside", "secret.txt"), "outside secret\n");
  await writeFile(join(base, "p-evil", "x.txt"), "evil\n");
  await symlink(join(base, "outside", "secret.txt"), join(root, "link-to-secret"));
  await symlink(join(base, "outside"), join(root, "linkdir"));
  await symlink(join(base, "outside", "new.txt"), join(root, "dangling"));
  await symlink(join(root, "src", "a.ts"), join(root, "inner-link"));
  ws = await Workspace.open(root);
});
afterAll(() => cleanup(base));

async function rejection(path: string): Promise<WorkspaceError> {
  try {
    await ws.resolve(path);
  } catch (error) {
    if (error instanceof WorkspaceError) return error;
    throw error;
  }
  throw new Error(`${path} was accepted`);
}

describe("Workspace.resolve", () => {
  test("accepts relative and absolute paths inside, existing or not", async () => {
    expect(await ws.resolve("src/a.ts")).toBe(join(root, "src", "a.ts"));
    expect(await ws.resolve(join(root, "src", "a.ts"))).toBe(join(root, "src", "a.ts"));
    expect(await ws.resolve("src/new/deep/file.ts")).toBe(join(root, "src", "new", "deep", "file.ts"));
    expect(await ws.resolve(".")).toBe(root);
    expect(await ws.resolve("src/../src/a.ts")).toBe(join(root, "src", "a.ts"));
  });

  test("resolves symlinks that stay inside to their real path", async () => {
    expect(await ws.resolve("inner-link")).toBe(join(root, "src", "a.ts"));
  });

  test("refuses a .. escape", async () => {
    const error = await rejection("../outside/secret.txt");
    expect(error.message).toContain("../outside/secret.txt");
    expect(error.message).toContain("outside the workspace");
    await rejection("src/../../outside/new.txt");
  });

  test("refuses an absolute path outside", async () => {
    await rejection(join(base, "outside", "secret.txt"));
    await rejection("/etc/passwd");
  });

  test("refuses a sibling directory sharing the root's name as a prefix", async () => {
    const error = await rejection(join(base, "p-evil", "x.txt"));
    expect(error.path).toBe(join(base, "p-evil", "x.txt"));
    await rejection("../p-evil/x.txt");
  });

  test("refuses a symlinked file pointing outside", async () => {
    const error = await rejection("link-to-secret");
    expect(error.message).toContain("link-to-secret");
  });

  test("refuses a path under a symlinked directory pointing outside, existing or not", async () => {
    await rejection("linkdir/secret.txt");
    await rejection("linkdir/not-yet/new.txt");
  });

  test("refuses a dangling symlink whose target is outside", async () => {
    await rejection("dangling");
  });

  test("extra roots are inside too", async () => {
    const wide = await Workspace.open(root, { extraRoots: [join(base, "outside")] });
    expect(await wide.resolve(join(base, "outside", "secret.txt"))).toBe(join(base, "outside", "secret.txt"));
    expect(wide.relative(join(base, "outside", "secret.txt"))).toBe(join(base, "outside", "secret.txt"));
    await expect(wide.resolve(join(base, "p-evil", "x.txt"))).rejects.toBeInstanceOf(WorkspaceError);
  });

  test("open resolves the root with realpath and refuses a missing root", async () => {
    const viaLink = join(base, "root-link");
    await symlink(root, viaLink);
    expect((await Workspace.open(viaLink)).root).toBe(root);
    await expect(Workspace.open(join(base, "missing"))).rejects.toBeInstanceOf(WorkspaceError);
  });
});

describe("Workspace.relative and isSensitive", () => {
  test("relative paths", () => {
    expect(ws.relative(join(root, "src", "a.ts"))).toBe("src/a.ts");
    expect(ws.relative(root)).toBe(".");
  });

  test(".git internals and .agent config are sensitive; look-alikes are not", () => {
    expect(ws.isSensitive(".git/config")).toBe(true);
    expect(ws.isSensitive(".git")).toBe(true);
    expect(ws.isSensitive("vendor/lib/.git/HEAD")).toBe(true);
    expect(ws.isSensitive(".agent/agents/root.yaml")).toBe(true);
    expect(ws.isSensitive(".gitignore")).toBe(false);
    expect(ws.isSensitive("src/.agent-notes.md")).toBe(false);
    expect(ws.isSensitive("src/a.ts")).toBe(false);
  });
});

describe("file primitives refuse paths outside the workspace", () => {
  test("read_file through a symlink to outside is an error result, nothing leaks", async () => {
    const out = await readFileTool.run({ path: "link-to-secret" }, await contextFor(root));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("outside the workspace");
    expect(out.modelText).not.toContain("outside secret");
  });

  test("write_file through a symlink to outside writes nothing", async () => {
    for (const path of ["link-to-secret", "dangling", "linkdir/new.txt", "../outside/new.txt"]) {
      const out = await writeFileTool.run({ path, content: "pwned\n" }, await contextFor(root));
      expect(out.isError).toBe(true);
    }
    expect(await readFile(join(base, "outside", "secret.txt"), "utf8")).toBe("outside secret\n");
    expect(await Bun.file(join(base, "outside", "new.txt")).exists()).toBe(false);
  });

  test("edit_file outside is refused; policyTarget throws WorkspaceError", async () => {
    const ctx = await contextFor(root);
    const args = { path: "../p-evil/x.txt", old_string: "evil", new_string: "good" };
    expect((await editFileTool.run(args, ctx)).isError).toBe(true);
    expect(await readFile(join(base, "p-evil", "x.txt"), "utf8")).toBe("evil\n");
    await expect(editFileTool.policyTarget(args, ctx)).rejects.toBeInstanceOf(WorkspaceError);
  });
});
