import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { GLOB_MAX_RESULTS, globTool } from "../../../src/tools/search/glob.ts";
import { GREP_MAX_MATCHES, grepTool } from "../../../src/tools/search/grep.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

let root: string;
let outside: string;

beforeAll(async () => {
  root = await tempDir();
  outside = await tempDir("agent-outside-");
  for (const dir of ["src/lib", "node_modules/dep", ".git", "docs", "many"])
    await mkdir(join(root, dir), { recursive: true });
  await writeFile(
    join(root, "src/main.ts"),
    "import { helper } from './lib/helper';\nconsole.log(helper());\n",
  );
  await writeFile(
    join(root, "src/lib/helper.ts"),
    "export function helper() {\n  return 'TODO: real value';\n}\n",
  );
  await writeFile(join(root, "docs/notes.md"), "TODO: write docs\n");
  await writeFile(join(root, "node_modules/dep/index.js"), "// TODO in a dependency\n");
  await writeFile(join(root, ".git/config"), "TODO in git\n");
  await writeFile(join(root, "image.png"), new Uint8Array([0x89, 0x50, 0, 0, 0x54, 0x4f, 0x44, 0x4f]));
  await writeFile(join(outside, "leak.ts"), "TODO outside\n");
  await symlink(outside, join(root, "outside-link"));
  for (let i = 0; i < 520; i++)
    await writeFile(join(root, "many", `f${String(i).padStart(3, "0")}.txt`), "TODO\n");
});
afterAll(() => cleanup(root, outside));

describe("grep", () => {
  test("finds matches as path:line: text, skipping .git, node_modules, binaries and outside links", async () => {
    const out = await grepTool.run({ pattern: "TODO", path: "src" }, await contextFor(root));
    expect(out.modelText).toBe("src/lib/helper.ts:2:   return 'TODO: real value';");
    const all = await grepTool.run({ pattern: "TODO", glob: "*.{ts,md,js,png}" }, await contextFor(root));
    expect(all.modelText).toBe(
      "docs/notes.md:1: TODO: write docs\nsrc/lib/helper.ts:2:   return 'TODO: real value';",
    );
    expect(all.display).toBe("grep /TODO/: 2 matches in 2 files");
  });

  test("glob filters by path when it has a slash; (?i) ignores case", async () => {
    const out = await grepTool.run({ pattern: "(?i)todo", glob: "docs/*.md" }, await contextFor(root));
    expect(out.modelText).toBe("docs/notes.md:1: TODO: write docs");
  });

  test("searches a single file and an explicitly named node_modules", async () => {
    const ctx = await contextFor(root);
    expect((await grepTool.run({ pattern: "helper", path: "src/main.ts" }, ctx)).modelText).toContain(
      "src/main.ts:1: import { helper }",
    );
    expect((await grepTool.run({ pattern: "TODO", path: "node_modules" }, ctx)).modelText).toBe(
      "node_modules/dep/index.js:1: // TODO in a dependency",
    );
  });

  test("caps the number of matches with a note", async () => {
    const out = await grepTool.run({ pattern: "TODO", path: "many" }, await contextFor(root));
    expect(out.modelText.split("\n").filter((l) => l.includes(":1: TODO")).length).toBe(GREP_MAX_MATCHES);
    expect(out.modelText).toContain(`showing the first ${GREP_MAX_MATCHES} matches`);
  });

  test("no match, an invalid regex and a path outside", async () => {
    const ctx = await contextFor(root);
    expect(await grepTool.run({ pattern: "nothing-like-this", path: "src" }, ctx)).toMatchObject({
      isError: false,
      modelText: "No matches for /nothing-like-this/ in src",
    });
    expect((await grepTool.run({ pattern: "(", path: "src" }, ctx)).modelText).toContain(
      "invalid regular expression",
    );
    const escaped = await grepTool.run({ pattern: "TODO", path: "outside-link" }, ctx);
    expect(escaped.isError).toBe(true);
    expect(escaped.modelText).not.toContain("TODO outside");
  });
});

describe("glob", () => {
  test("lists matching files relative to the workspace, sorted, skipping .git and node_modules", async () => {
    const out = await globTool.run({ pattern: "**/*.ts" }, await contextFor(root));
    expect(out.modelText).toBe("src/lib/helper.ts\nsrc/main.ts");
    const sub = await globTool.run({ pattern: "*.ts", path: "src/lib" }, await contextFor(root));
    expect(sub.modelText).toBe("src/lib/helper.ts");
    const dotted = await globTool.run({ pattern: "./src/*.ts" }, await contextFor(root));
    expect(dotted.modelText).toBe("src/main.ts");
  });

  test("caps results with a note", async () => {
    const out = await globTool.run({ pattern: "many/*.txt" }, await contextFor(root));
    expect(out.modelText.split("\n").filter((l) => l.startsWith("many/")).length).toBe(GLOB_MAX_RESULTS);
    expect(out.modelText).toContain(`showing the first ${GLOB_MAX_RESULTS}`);
  });

  test("stays inside the workspace", async () => {
    const ctx = await contextFor(root);
    expect((await globTool.run({ pattern: "../*" }, ctx)).isError).toBe(true);
    expect((await globTool.run({ pattern: "*", path: ".." }, ctx)).isError).toBe(true);
    expect((await globTool.run({ pattern: "*.ts", path: "outside-link" }, ctx)).isError).toBe(true);
    expect((await globTool.run({ pattern: "**/leak.ts" }, ctx)).modelText).toBe("No files match **/leak.ts");
  });
});
