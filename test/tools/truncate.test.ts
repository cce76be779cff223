/** Cuts of tool output never split a surrogate pair: half an emoji in JSON is a 400 from the Anthropic API. */
import { expect, test } from "bun:test";
import { cutLine, truncateText, wholeCharEnd } from "../../src/tools/truncate.ts";

const EMOJI = "😀"; // two UTF-16 units

/** True when no surrogate half stands alone (as String.prototype.isWellFormed, which our TS lib target lacks). */
function wellFormed(text: string): boolean {
  try {
    encodeURIComponent(text); // throws URIError on a lone surrogate
    return true;
  } catch {
    return false;
  }
}

test("a cut that would fall between an emoji's two halves falls before it", () => {
  const text = `ab${EMOJI}cd`;
  expect(wholeCharEnd(text, 3)).toBe(2);
  expect(wholeCharEnd(text, 2)).toBe(2);
  expect(wholeCharEnd(text, 4)).toBe(4);
  expect(wholeCharEnd("abc", 3)).toBe(3);
});

test("cutLine and truncateText keep whole characters and count what they cut", () => {
  const line = `${"a".repeat(1999)}${EMOJI.repeat(100)}`;
  const cut = cutLine(line);
  expect(wellFormed(cut)).toBe(true);
  expect(cut).toBe(`${"a".repeat(1999)}... [line cut: 200 more characters]`);
  const text = `${"b".repeat(9)}${EMOJI}${"c".repeat(20)}`;
  const truncated = truncateText(text, 10);
  expect(wellFormed(truncated)).toBe(true);
  expect(truncated.startsWith(`${"b".repeat(9)}\n\n[output truncated: 22 more characters`)).toBe(true);
});
