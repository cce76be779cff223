/**
 * History batches with colors forced on: history-batch-frames.tsx renders in a fresh Bun process with
 * FORCE_COLOR=3 (chalk decides its color level at load), and a batch's frame equals the Box-and-Texts one.
 * The same comparison without forced colors runs in process: test/ui/ink/history/history-batch.test.tsx.
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";

const ESC = "\u001b";

describe("a batch of history items on screen", () => {
  test("with colors forced on (chalk styles every mark, detail and diff line) the frames are the same", async () => {
    const script = resolve(import.meta.dir, "../../ui/ink/history/history-batch-frames.tsx");
    const proc = Bun.spawn([process.execPath, script], {
      env: { ...process.env, FORCE_COLOR: "3" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect(err).toBe("");
    expect(code).toBe(0);
    const all = JSON.parse(out) as { reference: string; perItem: string; batch: string }[];
    expect(all).toHaveLength(4);
    // Styled for real: the red ✗ of the failed command, the dimmed detail.
    expect(all[0]?.reference).toContain(`${ESC}[31m✗`);
    expect(all[0]?.reference).toContain(`${ESC}[2m`);
    for (const { reference, perItem, batch } of all) {
      expect(batch).toBe(reference);
      expect(perItem).toBe(reference);
    }
  });
});
