/**
 * The summary's escaping, checked by rendering with a real GFM renderer (marked): model text shows as
 * the same characters and never becomes HTML, a link, a table border or the end of a code block; and an
 * output value that contains the delimiter-looking lines still reads back whole.
 */
import { describe, expect, test } from "bun:test";
import { marked } from "marked";
import { outputEntry } from "../../scripts/action/github-files.ts";
import { codeBlock, codeSpan, escapeText } from "../../scripts/action/markdown.ts";
import { parseOutputFile } from "./composite-runner.ts";

const render = (markdown: string) => marked.parse(markdown, { gfm: true, async: false });

describe("markdown escaping", () => {
  test("escapeText renders as the text itself in a table cell: no HTML, link, emphasis or extra cell", () => {
    const text = "<script>x</script> | *bold* [a](https://e.x) ![i](y) &amp; `c` \\ # _u_\nnext";
    const html = render(`| a | b |\n|---|---|\n| ${escapeText(text)} | 2 |`);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<a ");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<em>");
    expect(html.match(/<td>/g)?.length).toBe(2);
    expect(html).toContain(
      "&lt;script&gt;x&lt;/script&gt; | *bold* [a](https://e.x) ![i](y) &amp;amp; `c` \\ # _u_ next",
    );
  });

  test("codeSpan and codeBlock hold backtick runs without ending early", () => {
    expect(render(codeSpan("a `` b ` c"))).toBe("<p><code>a `` b ` c</code></p>\n");
    const block = "```\n<b>not bold</b>\n````\nend";
    expect(render(codeBlock(block))).toBe(
      '<pre><code class="language-text">```\n&lt;b&gt;not bold&lt;/b&gt;\n````\nend\n</code></pre>\n',
    );
  });

  test("an output value reads back whole, whatever lines it holds", () => {
    const value = "line\nstatus=forged\nghadelimiter_1\nEOF\nname<<EOF";
    expect(parseOutputFile(outputEntry("answer", value) + outputEntry("status", "success"))).toEqual({
      answer: value,
      status: "success",
    });
  });
});
