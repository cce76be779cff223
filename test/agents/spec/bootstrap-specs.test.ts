import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BOOTSTRAP_TEXTS } from "../../../src/agents/spec/bootstrap-specs.ts";
import { BOOTSTRAP_DIR, loadSpecs, specSearchPath } from "../../../src/agents/spec/spec-loader.ts";

test("the embedded bootstrap specs are exactly the files in bootstrap/", () => {
  const files = readdirSync(BOOTSTRAP_DIR).filter((name) => /\.ya?ml$/.test(name));
  expect(Object.keys(BOOTSTRAP_TEXTS).sort()).toEqual(files.sort());
  for (const name of files)
    expect(BOOTSTRAP_TEXTS[name]).toBe(readFileSync(join(BOOTSTRAP_DIR, name), "utf8"));
});

test("without a bootstrap directory on disk (a compiled binary) the embedded specs are loaded", async () => {
  const bootstrap = specSearchPath("/nonexistent").find((s) => s.scope === "bootstrap");
  expect(bootstrap?.embedded).toBe(BOOTSTRAP_TEXTS);
  const result = await loadSpecs({
    workspaceRoot: "/nonexistent",
    sources: [{ dir: "/nonexistent/bootstrap", scope: "bootstrap", embedded: BOOTSTRAP_TEXTS }],
  });
  expect(result.errors).toEqual([]);
  expect([...result.specs.keys()].sort()).toEqual(["code-editor", "code-reader", "command-runner", "root"]);
  expect(result.specs.get("root")?.source.file).toBe(join("<built-in>", "root.yaml"));
});
