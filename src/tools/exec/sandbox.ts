/**
 * Sandboxed exec on Linux with bubblewrap (`bwrap`): exec and `verify:` commands run with the whole file
 * system read-only, the workspace roots writable (workspace-write) or read-only too (read-only), `.git` and
 * `.agent` at each root kept read-only, a private `/tmp`, fresh `/dev` and `/proc`, their own PID namespace,
 * and no network unless allowed. The sandbox is defence in depth behind the approval rules, never instead
 * of them.
 *
 * The bwrap arguments follow Codex's Linux sandbox (openai/codex codex-rs/linux-sandbox/src/bwrap.rs and
 * its README): `--new-session --die-with-parent`, `--ro-bind / /` first, `--dev /dev`, `--bind ROOT ROOT`
 * per writable root, then `--ro-bind` again over protected subpaths (`.git`, `.codex` there) so they win,
 * `--unshare-pid` with `--proc /proc`, and `--unshare-net` when network access is off. Unlike Codex's
 * workspace-write, /tmp is a private tmpfs here (`--tmpfs /tmp`, bwrap(1)); it is mounted before the roots
 * so a workspace under /tmp stays visible. bash is named by its host path (the first on the command's PATH,
 * real path), never looked up inside, where a PATH entry under the private /tmp would not exist; a bash
 * that lives where the sandbox mounts fresh file systems (/tmp, /dev) is bound in read-only, that one file
 * alone. Claude Code's Bash sandbox has the same default shape: write access to the working directory,
 * read access elsewhere, bubblewrap on Linux (https://code.claude.com/docs/en/sandboxing).
 *
 * Privilege: bwrap started by root keeps every capability unless told otherwise, so a command could
 * remount `/` read-write, unmount the read-only `.git` or `/proc`, or open raw sockets. Every sandbox
 * therefore drops all capabilities (`--cap-drop ALL`, bwrap(1): "Drop cap CAP when running as privileged
 * user") and, where user namespaces work, runs in its own (`--unshare-user`, identity-mapped, so files
 * made in the workspace keep their owner) with `--disable-userns`, so no nested namespace can hand the
 * capabilities back (bwrap 0.8 `--help`: "Disable further use of user namespaces inside sandbox"). The
 * probe tries that first and falls back to `--cap-drop ALL` alone where user namespaces are refused
 * (`--disable-userns` "requires --unshare-user": containers/bubblewrap bubblewrap.c, PR #749); bwrap sets
 * PR_SET_NO_NEW_PRIVS (containers/bubblewrap README, "System security"), so a setuid binary cannot
 * regain them. Checked here with bubblewrap 0.8.0 (Debian), as root and as `nobody`.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, existsSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { isWithin } from "../workspace.ts";
import type { ExecSandbox } from "./exec-sandbox.ts";
import type { SandboxSettings } from "./sandbox-settings.ts";
import { userFiles } from "./user-files.ts";

export type { ExecSandbox } from "./exec-sandbox.ts";
export { SANDBOX_MODES, type SandboxMode, type SandboxSettings } from "./sandbox-settings.ts";

/** Privilege-dropping bwrap arguments, strongest first: the probe keeps the first one bwrap accepts here. */
export const ISOLATIONS: readonly (readonly string[])[] = [
  ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"],
  ["--cap-drop", "ALL"],
];

/** The sandbox to use, or none: `unavailable` says why when one was wanted (a one-line warning). */
/** No sandbox: `unavailable` says why when one was wanted, `fix` what the user can do (default: install bwrap). */
export type SandboxChoice =
  | { sandbox: ExecSandbox }
  | { sandbox: undefined; unavailable?: string; fix?: string };

/** Top-level names in a writable root that stay read-only: git metadata (a hook or `core.fsmonitor`
 * written there would run outside the sandbox at the user's next git command) and the agent's own config. */
const PROTECTED_NAMES = [".git", ".agent"];
/** Where the sandbox mounts fresh file systems over the host's: host files there are hidden inside
 * (`/proc` too, but no real path of an executable file lies there). */
const FRESH_MOUNTS = ["/tmp", "/dev"];
/** The shell used when none is on the command's PATH. */
const FALLBACK_BASH = "/bin/bash";
/** A probe that has not answered by then counts as a refusal. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * Decides the sandbox for a workspace with `roots` (real paths): none when the mode is off; otherwise bwrap
 * from `env.PATH` (never one inside the workspace) if a probe shows it can create the namespaces here.
 * Never rejects. The probe starts a process (tens of milliseconds), so callers start this early and await
 * it when the session begins.
 */
export async function chooseSandbox(
  settings: SandboxSettings,
  roots: readonly string[],
  env: Record<string, string | undefined>,
  platform: NodeJS.Platform = process.platform,
): Promise<SandboxChoice> {
  const mode = settings.mode ?? "workspace-write";
  if (mode === "off") return { sandbox: undefined };
  const network = settings.network === true;
  if (platform !== "linux")
    return { sandbox: undefined, unavailable: `the sandbox is Linux only (this is ${platform})` };
  const bwrap = findBwrap(env.PATH ?? "", roots);
  if (bwrap === undefined) {
    // On PATH but inside the workspace (a workspace of `/` holds every bwrap): say so, not "not found".
    const inside = findExecutable("bwrap", env.PATH ?? "");
    const root = inside === undefined ? undefined : roots.find((r) => isWithin(r, inside));
    if (inside !== undefined && root !== undefined)
      return {
        sandbox: undefined,
        unavailable: `bwrap (${inside}) is on PATH but lies inside the workspace ${root}, where a command could replace it, so it is not used`,
        fix: "run agent in a project folder",
      };
    return { sandbox: undefined, unavailable: "bwrap (bubblewrap) was not found on PATH" };
  }
  const probed = await probe(bwrap, network, env.PATH ?? "");
  if (typeof probed === "string")
    return { sandbox: undefined, unavailable: `${bwrap} does not work here: ${probed}` };
  const readOnlyPaths = protectedPaths(mode, roots, userFiles(env));
  return { sandbox: { mode, network, bwrap, roots, readOnlyPaths, isolation: probed.isolation } };
}

/**
 * The program and arguments that run `command` with bash in `cwd` inside the sandbox; `path` is the PATH
 * the command gets, where bash is looked up on the host.
 */
export function sandboxedBash(
  sandbox: ExecSandbox,
  cwd: string,
  command: string,
  path: string,
): { file: string; args: string[] } {
  const bash = findExecutable("bash", path) ?? FALLBACK_BASH;
  const args = [
    ...sandbox.isolation,
    "--new-session",
    "--die-with-parent",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
  ];
  const bind = sandbox.mode === "workspace-write" ? "--bind" : "--ro-bind";
  for (const root of sandbox.roots) args.push(bind, root, root);
  for (const readOnly of sandbox.readOnlyPaths) args.push("--ro-bind", readOnly, readOnly);
  if (hiddenInside(bash, sandbox.roots)) args.push("--ro-bind", bash, bash);
  args.push("--unshare-pid", "--proc", "/proc");
  if (!sandbox.network) args.push("--unshare-net");
  args.push("--chdir", cwd, "--", bash, "-c", command);
  return { file: sandbox.bwrap, args };
}

/** True when the host file at `path` would not be seen inside: under a fresh mount and outside every root. */
function hiddenInside(path: string, roots: readonly string[]): boolean {
  return FRESH_MOUNTS.some((mount) => isWithin(mount, path)) && !roots.some((root) => isWithin(root, path));
}

/** The first executable `bwrap` in an absolute PATH entry that lies outside every workspace root. */
function findBwrap(path: string, roots: readonly string[]): string | undefined {
  return findExecutable("bwrap", path, (real) => roots.some((root) => isWithin(root, real)));
}

/** The real path of the first executable regular file `name` in an absolute PATH entry, bar `skip`ped ones. */
function findExecutable(
  name: string,
  path: string,
  skip: (real: string) => boolean = () => false,
): string | undefined {
  for (const dir of path.split(":")) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      const real = realpathSync(candidate);
      if (!statSync(real).isFile() || skip(real)) continue;
      return real;
    } catch {
      // not there, or not executable
    }
  }
  return undefined;
}

/** Probes by binary and network setting: each runs once per process. */
const probes = new Map<string, Promise<{ isolation: readonly string[] } | string>>();

/**
 * Runs bwrap with the namespaces exec will use, with each of ISOLATIONS in turn: the first that works, or
 * bwrap's complaint about the strongest one when none does.
 */
function probe(
  bwrap: string,
  network: boolean,
  path: string,
): Promise<{ isolation: readonly string[] } | string> {
  const key = `${bwrap}\0${network}`;
  const known = probes.get(key);
  if (known) return known;
  const result = (async () => {
    let first: string | undefined;
    for (const isolation of ISOLATIONS) {
      const refused = await probeOnce(
        {
          mode: "read-only",
          network,
          bwrap,
          roots: [],
          readOnlyPaths: [],
          isolation,
        },
        path,
      );
      if (refused === undefined) return { isolation };
      first ??= refused;
    }
    return first ?? "no isolation works";
  })();
  probes.set(key, result);
  return result;
}

/** Runs `exit 0` in `sandbox`; undefined when it works, else bwrap's complaint. */
function probeOnce(sandbox: ExecSandbox, path: string): Promise<string | undefined> {
  const { file, args } = sandboxedBash(sandbox, "/", "exit 0", path);
  return new Promise<string | undefined>((resolve) => {
    const child = spawn(file, args, { env: { PATH: path }, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(undefined);
      const said = stderr.trim().split("\n", 1)[0] ?? "";
      resolve(
        said || (signal === "SIGKILL" ? `no answer within ${PROBE_TIMEOUT_MS} ms` : `exit ${code ?? signal}`),
      );
    });
  });
}

/**
 * `.git` and `.agent` of each root, and the user's own files (user-files.ts) that exist, as real paths
 * inside a writable root (workspace-write mode only). A user file that does not exist cannot be bound
 * (bwrap would create the mount point on the host), so a command could still create it: the file tools ask.
 */
function protectedPaths(
  mode: ExecSandbox["mode"],
  roots: readonly string[],
  user: readonly string[],
): string[] {
  if (mode !== "workspace-write") return [];
  const paths = new Set<string>();
  for (const path of user) if (existsSync(path) && roots.some((r) => isWithin(r, path))) paths.add(path);
  for (const root of roots) {
    for (const name of PROTECTED_NAMES) {
      const path = join(root, name);
      if (!existsSync(path)) continue;
      const real = realpathSync(path);
      if (roots.some((r) => isWithin(r, real))) paths.add(real);
    }
  }
  return [...paths];
}

/**
 * The same sandbox for other workspace roots (an isolated sub-agent's worktree): the same mode, network
 * and isolation, with the new roots writable and their `.git`, `.agent` and the user's own files read-only.
 */
export function sandboxForRoots(
  sandbox: ExecSandbox,
  roots: readonly string[],
  env: Record<string, string | undefined>,
): ExecSandbox {
  return { ...sandbox, roots, readOnlyPaths: protectedPaths(sandbox.mode, roots, userFiles(env)) };
}
