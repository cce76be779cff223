/**
 * The library for Node, built by `prepack`: `import { createSession } from "agent"` resolves under Node
 * to dist/lib/node/index.js (package.json `exports`, condition `default`), one ES module bundled by Bun
 * from src/index.ts with the dependencies left as imports (npm installs them, pinned by
 * npm-shrinkwrap.json), and its types to dist/types/index.d.ts (tsc declarations). Under Bun the
 * `bun` condition keeps resolving src/index.ts. The bundle sits three folders below the package root
 * because src/agents/spec/spec-loader.ts finds bootstrap/ three folders up from its own URL.
 *
 *   bun scripts/package/build-library.ts
 */
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..", "..");
const OUT = join(ROOT, "dist", "lib", "node");
const TYPES = join(ROOT, "dist", "types");

rmSync(OUT, { recursive: true, force: true });
rmSync(TYPES, { recursive: true, force: true });
const result = await Bun.build({
  entrypoints: [join(ROOT, "src", "index.ts")],
  outdir: OUT,
  target: "node",
  format: "esm",
  packages: "external",
});
if (!result.success) {
  for (const log of result.logs) process.stderr.write(`${log}\n`);
  process.exit(1);
}
// The declarations of src/index.ts and what it imports (scripts/package/tsconfig.library.json).
const tsc = Bun.spawnSync(
  [join(ROOT, "node_modules", ".bin", "tsc"), "-p", join(import.meta.dir, "tsconfig.library.json")],
  { cwd: ROOT, stdout: "inherit", stderr: "inherit" },
);
process.exit(tsc.exitCode ?? 1);
