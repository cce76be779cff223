/** Markdown inside list items, wrapping under the bullet, and headings without `#` (issue 21 item 7). */
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { cleanup, render } from "ink-testing-library";
import { stripEscapeSequences } from "../../../../src/kernel/text/terminal-text.ts";
import { HistoryLine } from "../../../../src/ui/ink/history/history-line.tsx";
import { renderMarkdown } from "../../../../src/ui/ink/history/markdown.ts";
import { loadMarkdown } from "../../../../src/ui/ink/history/markdown-loader.ts";

// The views render markdown once its renderer is loaded (markdown-loader.ts), as the CLI's renderers load it.
beforeAll(() => loadMarkdown());

afterEach(() => cleanup());

const ESC = "\u001b";

describe("markdown in list items", () => {
  test("inline code, emphasis and strong text inside a list item are rendered, not shown as markdown", () => {
    const out = renderMarkdown("- run `bun test` with *care* and **speed**\n- two", false);
    expect(out).toContain("* run bun test with care and speed");
    expect(out).not.toContain("`");
    expect(out).not.toContain("**");
    expect(out).not.toMatch(/\*care\*/);
  });

  test("with colors, a list item's inline code, emphasis and bold carry their styles", () => {
    const out = renderMarkdown("1. the `x` flag is *new* and **loud**", true);
    expect(out).toContain(`${ESC}[33mx${ESC}[39m`);
    expect(out).toContain(`${ESC}[3mnew${ESC}[23m`);
    expect(out).toContain(`${ESC}[1mloud${ESC}[22m`);
  });

  test("a nested list item's inline markdown is rendered too", () => {
    const out = renderMarkdown("- outer\n  - inner `code` here", false);
    expect(out).toMatch(/^ {4}\* inner code here$/m);
  });

  test("headings render without `#`: bold, and the first level underlined too; without colors they keep their `#`", () => {
    // NO_COLOR strips every escape sequence: the markers keep headings apart from the text.
    const plain = renderMarkdown("# Title\n\n## Section\n\ntext", false);
    expect(plain).toMatch(/^# Title$/m);
    expect(plain).toMatch(/^## Section$/m);
    expect(plain).toMatch(/^text$/m);
    expect(plain).not.toContain("\u001b");
    const colored = renderMarkdown("# Title\n\n## Section", true);
    expect(colored).toContain(`${ESC}[4m${ESC}[1mTitle`);
    expect(colored).toContain(`${ESC}[1mSection${ESC}[22m`);
  });

  test("a long list item wraps to the width with its continuation lines under the text, not the bullet", () => {
    const words = Array.from({ length: 20 }, (_, i) => `word${i}`).join(" ");
    const out = renderMarkdown(`- ${words}`, false, 30);
    const lines = out.split("\n");
    expect(lines.length).toBeGreaterThan(2);
    expect(lines[0]).toMatch(/^ {2}\* word0 /);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {4}word\d+/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
    expect(lines.join(" ").replace(/[ *]+/g, " ").trim()).toBe(words);
  });

  test("styled text wraps by its visible width (escape sequences take no columns)", () => {
    const out = renderMarkdown("- `aaaa` bbbb cccc dddd eeee ffff gggg", true, 20);
    const visible = stripEscapeSequences(out).split("\n");
    expect(visible[0]).toBe("  * aaaa bbbb cccc");
    expect(visible[1]).toBe("    dddd eeee ffff");
  });

  test("in the history, a message's list wraps inside the terminal width, continuing under the item", () => {
    const text = "Done:\n\n- changed `greet.ts` so that the greeting uses the **configured** name everywhere";
    const { lastFrame } = render(
      <HistoryLine
        item={{ key: 1, kind: "message", depth: 0, agentName: "root", text }}
        colors={false}
        columns={40}
      />,
    );
    const frame = lastFrame() ?? "";
    expect(frame).toContain("  * changed greet.ts so that the");
    expect(frame).toMatch(/^ {4}greeting uses the configured name$/m);
    expect(frame).not.toContain("`");
  });
});
