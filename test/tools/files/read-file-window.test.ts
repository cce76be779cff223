import { describe, expect, test } from "bun:test";
import { lineWindow } from "../../../src/tools/files/read-file.ts";
import { countLines } from "../../../src/tools/truncate.ts";

/** What read_file showed before the window: the whole text split, a trailing newline's empty line dropped. */
function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

const TEXTS = [
  "",
  "\n",
  "\n\n",
  "one",
  "one\n",
  "one\ntwo",
  "one\ntwo\n",
  "a\n\nb\n\n",
  "\r\nwindows\r\nline\r\n",
  "tail without newline\nlast",
  Array.from({ length: 50 }, (_, i) => (i % 7 === 0 ? "" : `line ${i}`)).join("\n"),
];

describe("read_file's line window", () => {
  test("counts and cuts every window as splitting the whole text does", () => {
    let windows = 0;
    for (const text of TEXTS) {
      const lines = splitLines(text);
      expect(countLines(text)).toBe(lines.length);
      for (let start = 0; start < lines.length; start++) {
        for (const limit of [1, 2, 3, 10, 2000]) {
          const count = Math.min(limit, lines.length - start);
          expect(lineWindow(text, start, count)).toEqual(lines.slice(start, start + limit));
          windows++;
        }
      }
    }
    expect(windows).toBeGreaterThan(200);
  });
});
