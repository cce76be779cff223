/**
 * The architecture rules `bun run check` enforces with dependency-cruiser (docs/development.md, "The
 * architecture check"): no import circle, and imports flow downward only through the layers of the README's
 * "Layout (imports flow downward only)". Every import counts: static, type-only (`import type`, inline
 * `type` names, `typeof import(...)`), re-exports, dynamic `import()` and `require()`.
 */

/**
 * The layers, top to bottom. A module may import its own layer and any layer below it, never one above.
 *
 *   bin > index > cli > sdk > ui > agents > policy > tools > llm > session > telemetry > kernel
 *
 * `cli` is built on `sdk` (createSession); `ui` renders kernel events and policy suggestions; `agents` runs
 * the loop over `policy`, `tools` and `llm`; `telemetry` turns kernel events into spans; `kernel` depends on
 * nothing of ours.
 */
const LAYERS = [
  { name: "bin", path: "^bin/" },
  { name: "index", path: "^src/index\\.ts$" },
  { name: "cli", path: "^src/cli/" },
  { name: "sdk", path: "^src/sdk/" },
  { name: "ui", path: "^src/ui/" },
  { name: "agents", path: "^src/agents/" },
  { name: "policy", path: "^src/policy/" },
  { name: "tools", path: "^src/tools/" },
  { name: "llm", path: "^src/llm/" },
  { name: "session", path: "^src/session/" },
  { name: "telemetry", path: "^src/telemetry/" },
  { name: "kernel", path: "^src/kernel/" },
];

const layer = (name) => {
  const found = LAYERS.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`.dependency-cruiser.cjs: no layer named ${name}`);
  return found;
};
/** The path patterns of the layers below `name`. */
const below = (name) => {
  const index = LAYERS.indexOf(layer(name));
  return LAYERS.slice(index + 1).map((each) => each.path);
};

const ORDER = LAYERS.map((each) => each.name).join(" > ");

/** One rule per layer: it may not import any layer above it (the top layer has none above). */
const upwardRules = LAYERS.slice(1).map((each, index) => {
  const above = LAYERS.slice(0, index + 1);
  return {
    name: `layer-${each.name}`,
    comment: `${each.name} may not import ${above.map((a) => a.name).join(", ")}: imports flow downward only, ${ORDER} (README, "Layout"); move what it imports down a layer, or this code up`,
    severity: "error",
    from: { path: each.path },
    to: { path: above.map((a) => a.path) },
  };
});

/** Packages that draw on a terminal: Ink and React, and the styling, wrapping and Markdown-to-ANSI helpers. */
const INK = "^(node_modules/)?(ink|react|react-dom|react-devtools-core|ink-[^/]+)(/|$)";
const TERMINAL_PACKAGES =
  "^(node_modules/)?(chalk|wrap-ansi|widest-line|marked-terminal|@alcalzone/ansi-tokenize)(/|$)";
/** Node's terminal modules (core modules resolve to their bare name). */
const TERMINAL_CORE = "^(node:)?(tty|readline|readline/promises)$";

/** Node's modules that reach files, the user's machine, processes or the network. */
const IO_CORE =
  "^(node:)?(fs|fs/promises|os|child_process|worker_threads|net|dgram|dns|dns/promises|http|https|http2|tls|tty|readline|readline/promises)$";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "these modules import each other in a circle (the cycle is listed after the arrow); break it by moving what both need into a module below them",
      severity: "error",
      from: { path: "^(src|bin)/" },
      to: { circular: true },
    },
    ...upwardRules,
    {
      name: "no-ink-below-ui",
      comment: "only ui/ (and the layers above it) may import Ink or React (README, Layout)",
      severity: "error",
      from: { path: below("ui") },
      to: { path: INK },
    },
    {
      name: "no-terminal-below-agents",
      comment:
        "nothing below agents/ knows a terminal exists: no tty/readline, Ink, React or terminal styling packages (README, Layout)",
      severity: "error",
      from: { path: below("agents") },
      to: { path: [INK, TERMINAL_PACKAGES, TERMINAL_CORE] },
    },
    {
      name: "kernel-index-pure",
      comment:
        "kernel/index.ts holds the pure kernel: nothing it loads, directly or through other modules, may reach file, process or network I/O; import files/config-file.ts, files/paths.ts or text/redact.ts from their own paths",
      severity: "error",
      from: { path: "^src/kernel/index\\.ts$" },
      to: { reachable: true, path: IO_CORE },
    },
    {
      name: "not-to-unresolvable",
      comment: "this import resolves to no file or package, so the rules above cannot see where it goes",
      severity: "error",
      from: { path: "^(src|bin)/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript compiler API for dependency-cruiser to parse with, so swc parses .ts and
    // .tsx. It reads the source as written, so type-only imports are seen and count like any other (a layer
    // that names another's type knows that layer). `tsPreCompilationDeps` would ask for tsc and only warn.
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(test|bench|scripts|examples|dist)/" },
    moduleSystems: ["es6", "cjs"],
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["bun", "import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
      mainFields: ["module", "main", "types"],
    },
    cache: false,
  },
};
