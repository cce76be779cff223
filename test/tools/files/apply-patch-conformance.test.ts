/** The apply_patch conformance corpus (test/fixtures/conformance/apply-patch/, see its README.md). */

import { afterAll, describe, expect, test } from "bun:test";
import { cp, readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { applyPatchTool } from "../../../src/tools/files/apply-patch.ts";
import { cleanup, contextFor, tempDir } from "../helpers.ts";

const CORPUS = resolve(import.meta.dir, "../../fixtures/conformance/apply-patch");
const SCENARIOS = join(CORPUS, "scenarios");

/** Scenarios that must report an error (README "How a test should use it"). */
const REJECTING = new Set(["005", "006", "007", "008", "009", "012", "013", "015"]);

const scenarioNames = (await readdir(SCENARIOS, { withFileTypes: true }))
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

const made: string[] = [];
afterAll(() => cleanup(...made));

/** Every file (with its bytes, base64) and directory below `root`, keyed by relative path. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string, prefix: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out[`${rel}/`] = "dir";
        await walk(join(dir, e.name), rel);
      } else {
        out[rel] = (await readFile(join(dir, e.name))).toString("base64");
      }
    }
  };
  await walk(root, "");
  return out;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe("apply_patch conformance corpus", () => {
  test("the corpus has its 23 scenarios", () => {
    expect(scenarioNames.length).toBe(23);
  });

  for (const name of scenarioNames) {
    const id = name.slice(0, 3);
    test(name, async () => {
      const dir = join(SCENARIOS, name);
      const workspace = await tempDir("agent-patch-conf-");
      made.push(workspace);
      if (await exists(join(dir, "input"))) await cp(join(dir, "input"), workspace, { recursive: true });
      const patch = await readFile(join(dir, "patch.txt"), "utf8");
      const before = await snapshot(workspace);

      const result = await applyPatchTool.run({ patch }, await contextFor(workspace));

      const after = await snapshot(workspace);
      if (REJECTING.has(id)) {
        expect(result.isError).toBe(true);
        expect(result.modelText).toContain("The patch was not applied: no file was changed.");
        // All-or-nothing: a rejected patch changes nothing (for 015 too, unlike upstream).
        expect(after).toEqual(before);
        if (id === "015") expect(await exists(join(workspace, "created.txt"))).toBe(false);
      } else {
        expect(result.modelText).toStartWith("Success.");
        expect(result.isError).toBe(false);
        expect(after).toEqual(await snapshot(join(dir, "expected")));
      }
    });
  }
});
