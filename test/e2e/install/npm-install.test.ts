/**
 * Installed as the README says: the tarball `npm pack` makes, installed with scripts/package/install.sh
 * into a temp prefix (where `npm install -g --prefix` puts it, but with `npm ci` from the tarball's
 * npm-shrinkwrap.json, which `npm install -g` of a local tarball ignores), gives a working `agent` on a PATH that holds only that
 * prefix's bin/ and Node's own folder, with no Bun anywhere on it: Bun comes with the package (its `bun`
 * dependency) and bin/agent finds it. Every installed dependency is the version bun.lock holds (the versions the tests ran with), and the library is plain
 * JavaScript for Node: `import { createSession } from "agent"` in a Node process runs a goal against the
 * fake server. One test, since packing and installing take a minute or more (the npm registry or npm's
 * cache serves the dependencies).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseBunLock } from "../../../scripts/package/shrinkwrap.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { processOutput } from "../../support/process-output.ts";
import { type E2eSandbox, makeE2eSandbox, TEST_KEY } from "../support.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

let server: FakeLlmServer;
let sandbox: E2eSandbox;
let dir: string;
beforeAll(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
  dir = mkdtempSync(join(tmpdir(), "agent-npm-"));
});
afterAll(async () => {
  await server.close();
  sandbox.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function run(
  cmd: string[],
  options: { cwd: string; env: Record<string, string | undefined>; stdin?: string },
) {
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  return processOutput(proc);
}

describe("the packed package, installed into a prefix as npm install -g would", () => {
  test("runs agent --version and a piped agent helper call with no Bun on PATH", async () => {
    const npm = Bun.which("npm");
    const node = Bun.which("node");
    expect({ npm: npm !== null, node: node !== null }).toEqual({ npm: true, node: true });

    const packed = await run(["npm", "pack", "--json", "--pack-destination", dir], {
      cwd: ROOT,
      env: process.env,
    });
    expect(packed.code).toBe(0);
    const [pack] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    const files = pack?.files.map((f) => f.path) ?? [];
    // What runs is in the tarball, and the tests are not.
    for (const needed of [
      "bin/agent",
      "bin/agent.ts",
      "src/cli/main.ts",
      "bootstrap/root.yaml",
      "package.json",
      "npm-shrinkwrap.json",
      "dist/lib/node/index.js",
      "dist/types/index.d.ts",
    ]) {
      expect(files).toContain(needed);
    }
    expect(files.filter((f) => f.startsWith("test/"))).toEqual([]);

    const prefix = join(dir, "prefix");
    const installed = await run(
      ["sh", join(ROOT, "scripts/package/install.sh"), "--prefix", prefix, join(dir, pack?.filename ?? "")],
      { cwd: dir, env: process.env },
    );
    expect({ code: installed.code, stderr: installed.stderr }).toEqual({
      code: 0,
      stderr: expect.any(String),
    });

    // What was installed is what bun.lock holds, folder by folder.
    const lock = parseBunLock(readFileSync(join(ROOT, "bun.lock"), "utf8"));
    const shrinkwrap = JSON.parse(readFileSync(join(ROOT, "npm-shrinkwrap.json"), "utf8")) as {
      packages: Record<string, { version?: string; optional?: boolean }>;
    };
    const packageDir = join(prefix, "lib", "node_modules", "agent");
    const drift: string[] = [];
    /** engines.node of each installed package (`name@version`), the package itself included. */
    const nodeEngines = new Map<string, string | undefined>();
    const readManifest = (folder: string) =>
      JSON.parse(readFileSync(join(packageDir, folder, "package.json"), "utf8")) as {
        version: string;
        engines?: { node?: string };
      };
    nodeEngines.set(`agent@${VERSION}`, readManifest("").engines?.node);
    for (const [folder, entry] of Object.entries(shrinkwrap.packages)) {
      if (folder === "") continue;
      const key = folder.replace(/^node_modules\//, "").replaceAll("/node_modules/", "/");
      const locked = lock.packages[key]?.[0];
      const name = folder.slice(folder.lastIndexOf("node_modules/") + "node_modules/".length);
      if (locked !== `${name}@${entry.version}`)
        drift.push(`${folder}: shrinkwrap ${entry.version}, bun.lock ${locked}`);
      let installed: string | undefined;
      try {
        const manifest = readManifest(folder);
        installed = manifest.version;
        nodeEngines.set(`${name}@${installed}`, manifest.engines?.node);
      } catch {
        if (entry.optional === true) continue; // another platform's package
      }
      if (installed !== entry.version)
        drift.push(`${folder}: installed ${installed}, locked ${entry.version}`);
    }
    expect(drift).toEqual([]);

    // npm warns EBADENGINE for a package whose engines.node excludes the Node it runs on. Each warning must
    // be true, and the package's own (the library needs Node 22+, as its SDKs declare) appears exactly when
    // this machine's Node is older: on a Node that satisfies every engines range there is none.
    const nodeVersion = (await run([node ?? "node", "--version"], { cwd: dir, env: process.env })).stdout
      .trim()
      .replace(/^v/, "");
    const warned = [...installed.stderr.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1] ?? "");
    const untrue = warned.filter((pkg) => {
      const range = nodeEngines.get(pkg);
      return range === undefined || Bun.semver.satisfies(nodeVersion, range);
    });
    expect({ nodeVersion, untrue }).toEqual({ nodeVersion, untrue: [] });
    const ownRange = nodeEngines.get(`agent@${VERSION}`) ?? "";
    expect({ ownRange, warned: warned.includes(`agent@${VERSION}`) }).toEqual({
      ownRange: ">=22",
      warned: !Bun.semver.satisfies(nodeVersion, ">=22"),
    });

    const path = `${join(prefix, "bin")}:${dirname(node ?? "")}`;
    expect(Bun.which("bun", { PATH: path })).toBeNull(); // the point of the test: no Bun on this PATH
    const env = sandbox.env({ PATH: path });

    const version = await run(["agent", "--version"], { cwd: sandbox.workspace, env });
    expect({ code: version.code, stdout: version.stdout.trim(), stderr: version.stderr }).toEqual({
      code: 0,
      stdout: VERSION,
      stderr: "",
    });

    server.enqueue({ text: "Blue." });
    const helper = await run(["agent", "helper", "--tier", "fast", "What colour is the sky?"], {
      cwd: sandbox.workspace,
      env: { ...env, ANTHROPIC_API_KEY: TEST_KEY, ANTHROPIC_BASE_URL: server.anthropicBaseUrl },
      stdin: "the sky is blue",
    });
    expect({ code: helper.code, stdout: helper.stdout }).toEqual({ code: 0, stdout: "Blue.\n" });
    expect(server.requests).toHaveLength(1);
    expect(JSON.stringify(server.requests[0]?.body)).toContain("the sky is blue");
    expect(server.pending()).toBe(0);

    // The library under Node: compiled JavaScript, resolved from the install prefix's node_modules.
    server.enqueue({ text: "Hello from Node." });
    const script = [
      'import { createSession } from "agent";',
      "const session = await createSession({ cwd: process.env.WORKSPACE, sandbox: { mode: 'off' } });",
      'const result = await session.run("Say hello");',
      "await session.close();",
      "console.log(JSON.stringify({ status: result.status, answer: result.answer }));",
    ].join("\n");
    // Run from the prefix's lib/, so Node's own lookup finds lib/node_modules/agent (ES modules ignore NODE_PATH).
    const library = await run([node ?? "node", "--input-type=module", "-e", script], {
      cwd: join(prefix, "lib"),
      env: {
        ...env,
        WORKSPACE: sandbox.workspace,
        ANTHROPIC_API_KEY: TEST_KEY,
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      },
    });
    expect({ code: library.code, stdout: library.stdout, stderr: library.stderr }).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ status: "success", answer: "Hello from Node." })}\n`,
      stderr: "",
    });
  }, 600_000);
});
