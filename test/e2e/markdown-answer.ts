/** A model answer in markdown, and what a terminal shows once it is rendered: shared by the run's and
 * the chat's terminal tests (test/e2e/run/run-tty-ui, test/e2e/chat/chat-markdown). */
import { expect } from "bun:test";

export const MARKDOWN_ANSWER = "# Result\n\nAll **green**.\n\n- one `x` *y*\n- two\n\n```sh\nbun test\n```";

/** The answer as markdown: heading without `#`, emphasis without markers, the code fence's line alone. */
export function expectRenderedMarkdown(screen: string): void {
  expect(screen).toMatch(/^Result$/m);
  expect(screen).not.toContain("# Result");
  expect(screen).toContain("All green.");
  expect(screen).toMatch(/^\s+\* one x y$/m);
  expect(screen).toMatch(/^\s+bun test$/m);
  expect(screen).not.toContain("**green**");
  expect(screen).not.toContain("```");
}
