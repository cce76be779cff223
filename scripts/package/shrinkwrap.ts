/**
 * npm-shrinkwrap.json from bun.lock, written by `prepack` so the packed package pins exactly the versions
 * the tests ran with: `npm install -g agent-X.tgz` installs the package's shrinkwrap as it is
 * (https://docs.npmjs.com/cli/v11/configuring-npm/npm-shrinkwrap-json: "published packages", unlike
 * package-lock.json, which npm pack leaves out). Only what `dependencies` reaches is written, in npm's
 * lockfile v3 shape (https://docs.npmjs.com/cli/v11/configuring-npm/package-lock-json, "packages"):
 * one entry per installed folder, `node_modules/a/node_modules/b` for bun.lock's nested key `a/b`, with
 * the registry tarball, its integrity and the fields npm needs to place and skip packages (os, cpu,
 * libc, optional, bin, hasInstallScript). bun.lock is Bun's text lockfile: JSON with trailing commas,
 * `packages` mapping an install path to [name@version, registry, metadata, integrity]
 * (https://bun.sh/docs/install/lockfile).
 *
 *   bun scripts/package/shrinkwrap.ts          # writes npm-shrinkwrap.json beside package.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

type Deps = Record<string, string>;

interface LockMeta {
  dependencies?: Deps;
  optionalDependencies?: Deps;
  peerDependencies?: Deps;
  optionalPeers?: string[];
  os?: string | string[];
  cpu?: string | string[];
  libc?: string | string[];
  bin?: Record<string, string> | string;
  hasInstallScript?: boolean;
}

type LockEntry = [ident: string, registry: string, meta: LockMeta, integrity: string];

interface BunLock {
  packages: Record<string, LockEntry>;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Deps;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  license?: string;
}

/** One `packages` entry of npm's lockfile. */
export interface ShrinkwrapEntry {
  version: string;
  resolved: string;
  integrity: string;
  optional?: boolean;
  dependencies?: Deps;
  optionalDependencies?: Deps;
  peerDependencies?: Deps;
  peerDependenciesMeta?: Record<string, { optional: true }>;
  bin?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  hasInstallScript?: boolean;
}

export interface Shrinkwrap {
  name: string;
  version: string;
  lockfileVersion: 3;
  requires: true;
  packages: Record<string, ShrinkwrapEntry | (PackageJson & { name: string })>;
}

/** `name@version` → its version (the name may itself start with `@`). */
function versionOf(ident: string): string {
  return ident.slice(ident.lastIndexOf("@") + 1);
}

/** The registry tarball npm fetches: https://registry.npmjs.org/NAME/-/BASENAME-VERSION.tgz. */
function tarball(name: string, version: string, registry: string): string {
  const base = registry === "" ? "https://registry.npmjs.org/" : registry.replace(/\/?$/, "/");
  return `${base}${name}/-/${name.split("/").pop()}-${version}.tgz`;
}

const list = (v: string | string[] | undefined) => (v === undefined ? undefined : [v].flat());

/** Parses bun.lock's text (JSON with trailing commas). */
export function parseBunLock(text: string): BunLock {
  return Bun.JSONC.parse(text) as BunLock;
}

/** The shrinkwrap of `pkg`'s dependencies as `lock` resolved them. Throws on a dependency bun.lock lacks. */
export function shrinkwrapFromBunLock(lock: BunLock, pkg: PackageJson): Shrinkwrap {
  const packages = lock.packages;
  /** Where `name`, required from install path `from`, is found: Node's lookup, nearest folder first. */
  const locate = (from: string[], name: string): string[] | undefined => {
    for (let depth = from.length; depth >= 0; depth--) {
      const path = [...from.slice(0, depth), name];
      if (packages[path.join("/")] !== undefined) return path;
    }
    return undefined;
  };
  const entries = new Map<string, { path: string[]; optional: boolean }>();
  const visit = (from: string[], name: string, optional: boolean, required: boolean) => {
    const path = locate(from, name);
    if (path === undefined) {
      if (required)
        throw new Error(`bun.lock has no entry for ${name} (needed by ${from.join("/") || pkg.name})`);
      return;
    }
    const key = path.join("/");
    const seen = entries.get(key);
    if (seen !== undefined) {
      if (seen.optional && !optional) seen.optional = false;
      else return;
    } else entries.set(key, { path, optional });
    const meta = packages[key]?.[2] ?? {};
    for (const dep of Object.keys(meta.dependencies ?? {})) visit(path, dep, optional, true);
    for (const dep of Object.keys(meta.optionalDependencies ?? {})) visit(path, dep, true, false);
    const optionalPeers = new Set(meta.optionalPeers ?? []);
    // npm installs required peers; optional ones only resolve to what is installed anyway.
    for (const dep of Object.keys(meta.peerDependencies ?? {}))
      if (!optionalPeers.has(dep)) visit(path, dep, optional, true);
  };
  for (const name of Object.keys(pkg.dependencies ?? {})) visit([], name, false, true);

  const out: Shrinkwrap["packages"] = {
    "": {
      name: pkg.name,
      version: pkg.version,
      ...(pkg.license === undefined ? {} : { license: pkg.license }),
      dependencies: pkg.dependencies ?? {},
      ...(pkg.bin === undefined ? {} : { bin: pkg.bin }),
      ...(pkg.engines === undefined ? {} : { engines: pkg.engines }),
    },
  };
  for (const key of [...entries.keys()].sort()) {
    const { path, optional } = entries.get(key) ?? { path: [], optional: false };
    const [ident, registry, meta, integrity] = packages[key] as LockEntry;
    const name = path[path.length - 1] ?? "";
    const version = versionOf(ident);
    const optionalPeers = meta.optionalPeers ?? [];
    const entry: ShrinkwrapEntry = { version, resolved: tarball(name, version, registry), integrity };
    if (optional) entry.optional = true;
    if (meta.dependencies) entry.dependencies = meta.dependencies;
    if (meta.optionalDependencies) entry.optionalDependencies = meta.optionalDependencies;
    if (meta.peerDependencies) entry.peerDependencies = meta.peerDependencies;
    if (optionalPeers.length > 0)
      entry.peerDependenciesMeta = Object.fromEntries(optionalPeers.map((p) => [p, { optional: true }]));
    if (typeof meta.bin === "string") entry.bin = { [name.split("/").pop() ?? name]: meta.bin };
    else if (meta.bin) entry.bin = meta.bin;
    const os = list(meta.os);
    const cpu = list(meta.cpu);
    const libc = list(meta.libc);
    if (os) entry.os = os;
    if (cpu) entry.cpu = cpu;
    if (libc) entry.libc = libc;
    if (meta.hasInstallScript) entry.hasInstallScript = true;
    out[`node_modules/${path.join("/node_modules/")}`] = entry;
  }
  return { name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages: out };
}

if (import.meta.main) {
  const root = resolve(import.meta.dir, "..", "..");
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageJson;
  const lock = parseBunLock(readFileSync(join(root, "bun.lock"), "utf8"));
  const shrinkwrap = shrinkwrapFromBunLock(lock, pkg);
  writeFileSync(join(root, "npm-shrinkwrap.json"), `${JSON.stringify(shrinkwrap, null, 2)}\n`);
  process.stdout.write(
    `wrote npm-shrinkwrap.json (${Object.keys(shrinkwrap.packages).length - 1} packages)\n`,
  );
}
