/**
 * Finished items printed as batches (one Text per run of items, history-text.ts) show exactly what a Box
 * and nested Texts per item showed: same characters, same styles, same wrapping and indentation.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { loadMarkdown } from "../../../../src/ui/ink/history/markdown-loader.ts";
import { frames } from "./history-batch-frames.tsx";

// The views render markdown once its renderer is loaded (markdown-loader.ts), as the CLI's renderers load it.
beforeAll(() => loadMarkdown());

const ESC = "\u001b";

describe("a batch of history items on screen", () => {
  for (const colors of [true, false])
    for (const width of [40, 100])
      test(`is the frame of one Box and nested Texts per item (colors ${colors}, ${width} columns)`, () => {
        const { reference, perItem, batch } = frames(colors, width);
        expect(reference).toContain("refactor word0");
        expect(batch).toBe(reference);
        expect(perItem).toBe(reference);
      });

  test("with colors forced on (chalk styles every mark, detail and diff line) the frames are the same", async () => {
    const script = resolve(import.meta.dir, "history-batch-frames.tsx");
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
