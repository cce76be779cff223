/**
 * The model layer's start-up cost, seen from a fresh Bun process (the in-process catalog tests are in
 * test/llm/catalog/catalog.test.ts): importing it reads no catalog, and a lookup reads the premerged one.
 */
import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("start-up cost", () => {
  test("importing the model layer reads no catalog; a lookup reads the premerged catalog, not the snapshot", () => {
    const script = [
      'await import("./src/llm/resolve.ts");',
      'await import("./src/llm/client.ts");',
      "const loaded = (name) => Object.keys(require.cache).some((k) => k.includes(name));",
      'const before = [loaded("models-snapshot"), loaded("catalog-merged")];',
      'const { modelInfo } = await import("./src/llm/catalog.ts");',
      'const known = modelInfo("gpt-6.2-sol").known;',
      'console.log(JSON.stringify([...before, known, loaded("models-snapshot"), loaded("catalog-merged")]));',
    ].join("\n");
    const child = Bun.spawnSync([process.execPath, "-e", script], {
      cwd: join(import.meta.dir, "../../.."),
      env: { ...process.env, XDG_CACHE_HOME: join(tmpdir(), "agent-no-catalog-cache") },
    });
    // Without a newer cached refresh the snapshot JSON is never parsed: catalog-merged.json holds the merge.
    expect(child.stdout.toString().trim()).toBe("[false,false,true,false,true]");
  });
});
