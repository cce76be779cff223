/** Task workspaces: a fresh copy of the fixture (links kept as links, a FIFO refused) or a git ref's tree. */
import { afterAll, expect, test } from "bun:test";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareWorkspace, WorkspaceError } from "../../../src/cli/eval/task/task-workspace.ts";

const dir = mkdtempSync(join(tmpdir(), "agent-eval-ws-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a folder fixture is copied, symlinks as links; writes to the copy never reach the fixture", () => {
  const fixture = join(dir, "fixture");
  mkdirSync(join(fixture, "sub"), { recursive: true });
  writeFileSync(join(fixture, "sub", "a.txt"), "a\n");
  symlinkSync("/etc/passwd", join(fixture, "out-link"));
  const workspace = prepareWorkspace("copy", { kind: "folder", path: fixture });
  expect(readFileSync(join(workspace.path, "sub", "a.txt"), "utf8")).toBe("a\n");
  expect(readlinkSync(join(workspace.path, "out-link"))).toBe("/etc/passwd");
  writeFileSync(join(workspace.path, "sub", "a.txt"), "changed\n");
  expect(readFileSync(join(fixture, "sub", "a.txt"), "utf8")).toBe("a\n");
  workspace.remove();
  expect(existsSync(workspace.path)).toBe(false);
});

test("a FIFO in a fixture is refused, never opened", () => {
  const fixture = join(dir, "with-fifo");
  mkdirSync(fixture);
  Bun.spawnSync(["mkfifo", join(fixture, "pipe")]);
  expect(() => prepareWorkspace("fifo", { kind: "folder", path: fixture })).toThrow(WorkspaceError);
});

test("a git ref gives that commit's tree; an unknown ref is a WorkspaceError naming it", () => {
  const repo = join(dir, "repo");
  mkdirSync(repo);
  const git = (...args: string[]) =>
    expect(
      Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: repo }).exitCode,
    ).toBe(0);
  git("init", "-q");
  writeFileSync(join(repo, "v.txt"), "one\n");
  git("add", "v.txt");
  git("commit", "-qm", "one");
  git("branch", "first");
  writeFileSync(join(repo, "v.txt"), "two\n");
  git("commit", "-qam", "two");
  const workspace = prepareWorkspace("git", { kind: "git", repo, ref: "first" });
  expect(readFileSync(join(workspace.path, "v.txt"), "utf8")).toBe("one\n");
  workspace.remove();
  expect(() => prepareWorkspace("git", { kind: "git", repo, ref: "no-such-ref" })).toThrow(/no-such-ref/);
});
