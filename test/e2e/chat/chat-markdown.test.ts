/**
 * The chat loads its markdown renderer after its first screen (src/ui/ink/history/markdown-loader.ts):
 * on a real terminal (tmux), answers still print as markdown: a first message given on the command line
 * (its turn starts right after the first frame), a message typed in the box, and a continued chat's
 * earlier answer; with NO_COLOR, headings keep their `#` markers.
 */
import { expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { expectRenderedMarkdown, MARKDOWN_ANSWER } from "../markdown-answer.ts";
import { freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, tmux, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

const INPUT = /Enter send/;

test(
  "a first message from the command line and one typed in the box: both answers print as markdown",
  async () => {
    server.enqueue({ text: MARKDOWN_ANSWER }, { text: MARKDOWN_ANSWER.replace("Result", "Second") });
    await withTerminal(["chat", "report"], { server }, async (run) => {
      await run.waitForScreen(/All green\./, "the first answer");
      await run.waitForScreen(INPUT, "the input box");
      expectRenderedMarkdown(run.screen());
      run.send("again");
      const screen = await run.waitForScreen(/^Second$/m, "the second answer's heading");
      expect(screen).not.toContain("# Second");
      expect(await run.exitAfter("C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "a continued chat prints its earlier answer as markdown",
  async () => {
    server.enqueue({ text: MARKDOWN_ANSWER });
    await withTerminal(["chat", "report"], { server }, async (first) => {
      await first.waitForScreen(/All green\./, "the answer");
      await first.waitForScreen(INPUT, "the input box");
      expect(await first.exitAfter("C-d")).toBe(0);
      await withTerminal(["chat", "-c"], { server, sandbox: first.sandbox }, async (again) => {
        const screen = await again.waitForScreen(INPUT, "the continued chat's input box");
        expectRenderedMarkdown(screen);
        expect(await again.exitAfter("C-d")).toBe(0);
      });
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "with NO_COLOR, headings keep their # markers and no escape sequence styles the answer",
  async () => {
    server.enqueue({ text: "# Result\n\nAll **green**.\n\n## Next\n\nShip it." });
    await withTerminal(["chat", "report"], { server, env: { NO_COLOR: "1" } }, async (run) => {
      await run.waitForScreen(/Ship it\./, "the answer");
      const screen = run.screen();
      expect(screen).toMatch(/^# Result$/m);
      expect(screen).toMatch(/^## Next$/m);
      expect(screen).toContain("All green.");
      // The heading's row has no color, bold or underline (capture-pane -e shows the styles; tmux's own
      // resets, `ESC[0m`, `ESC[39m`, `ESC[49m`, set nothing).
      const styled = tmux("capture-pane", "-p", "-e", "-t", run.name);
      const heading = styled.split("\n").find((line) => line.includes("# Result")) ?? "";
      expect(heading).toContain("# Result");
      const sgr = new RegExp(`${"\u001b"}\\[(?:[0-9;]*;)?(?:1|4|3[0-7]|38|9[0-7])(?:;[0-9;]*)?m`);
      expect(heading).not.toMatch(sgr);
      expect(await run.exitAfter("C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);
