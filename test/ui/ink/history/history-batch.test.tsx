/**
 * Finished items printed as batches (one Text per run of items, history-text.ts) show exactly what a Box
 * and nested Texts per item showed: same characters, same styles, same wrapping and indentation. With
 * colors forced on (a separate process): test/e2e/ui/history-batch-colors.test.ts.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { loadMarkdown } from "../../../../src/ui/ink/history/markdown-loader.ts";
import { frames } from "./history-batch-frames.tsx";

// The views render markdown once its renderer is loaded (markdown-loader.ts), as the CLI's renderers load it.
beforeAll(() => loadMarkdown());

describe("a batch of history items on screen", () => {
  for (const colors of [true, false])
    for (const width of [40, 100])
      test(`is the frame of one Box and nested Texts per item (colors ${colors}, ${width} columns)`, () => {
        const { reference, perItem, batch } = frames(colors, width);
        expect(reference).toContain("refactor word0");
        expect(batch).toBe(reference);
        expect(perItem).toBe(reference);
      });
});
