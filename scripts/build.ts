/**
 * `bun run build`: the standalone binary `dist/agent` (bun build --compile, minified, with bytecode and
 * split chunks, so a one-shot loads only what it runs; Bun's .env and bunfig.toml autoloads off, so a
 * cloned repository's files cannot configure the binary).
 *
 *   bun scripts/build.ts [--outfile dist/agent] [--no-minify]   # --no-minify keeps names for --cpu-prof
 *
 * Bun.build, not the `bun build` command, for one plugin: commander imports `stripVTControlCharacters`
 * from node:util (to measure help text). Loading node:util and its inspect module is about 5 ms of a
 * compiled one-shot's 75 (bench/startup.ts; commander alone 13 ms in a binary, 5 of it node:util), for a
 * function a one-shot never calls. In the binary commander gets `Bun.stripANSI` instead, Bun's native
 * function for the same job. grep-worker.ts is an entry point so the binary carries the worker.
 */
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const args = process.argv.slice(2);
const outIndex = args.indexOf("--outfile");
const outfile = resolve(outIndex >= 0 ? (args[outIndex + 1] ?? "") : join("dist", "agent"));
const NODE_UTIL_IMPORT = "import { stripVTControlCharacters } from 'node:util';";
const STRIP_ANSI_IMPORT = "const stripVTControlCharacters = (text) => Bun.stripANSI(text);";

function join(...parts: string[]): string {
  return resolve(ROOT, ...parts);
}

const result = await Bun.build({
  entrypoints: [join("src/cli/main.ts"), join("src/tools/search/grep-worker.ts")],
  compile: { outfile, autoloadDotenv: false, autoloadBunfig: false },
  minify: !args.includes("--no-minify"),
  bytecode: true,
  format: "esm",
  splitting: true,
  plugins: [
    {
      name: "commander-without-node-util",
      setup(build) {
        // Bun resolves node: built-ins before any plugin sees them, so the import line itself is replaced.
        build.onLoad(
          { filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/](command|help)\.js$/ },
          async (input) => {
            const source = await Bun.file(input.path).text();
            if (!source.includes(NODE_UTIL_IMPORT))
              throw new Error(
                `${input.path} no longer has the line scripts/build.ts replaces: ${NODE_UTIL_IMPORT}`,
              );
            return { contents: source.replace(NODE_UTIL_IMPORT, STRIP_ANSI_IMPORT), loader: "js" };
          },
        );
      },
    },
  ],
});
if (!result.success) {
  for (const log of result.logs) process.stderr.write(`${log}\n`);
  process.exit(1);
}
process.stdout.write(`built ${outfile}\n`);
