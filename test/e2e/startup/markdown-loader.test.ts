/**
 * The markdown renderer is loaded on demand (src/ui/ink/history/markdown-loader.ts): importing the chat's
 * Ink view does not load marked-terminal and highlight.js; until loaded, text shows as it is; a chat's
 * `ready()` resolves once it is loaded. Each case runs in its own Bun process: module state is per process.
 */
import { expect, test } from "bun:test";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../../..");

/** Runs `code` (an ES module body) in a fresh Bun process from the repository root; its stdout. */
async function inFreshProcess(code: string): Promise<string> {
  const proc = Bun.spawn([process.execPath, "-e", code], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, exit] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (exit !== 0) throw new Error(`bun -e failed (${exit}): ${err}`);
  return out.trim();
}

/** How many loaded modules belong to marked-terminal's highlighter (cli-highlight, highlight.js). */
const HIGHLIGHTER_MODULES = `Object.keys(require.cache).filter((k) => /cli-highlight|highlight\\.js|marked-terminal/.test(k)).length`;

test("the chat's Ink view imports no markdown renderer; loadMarkdown brings it, and text renders", async () => {
  const out = await inFreshProcess(`
    await import("./src/ui/ink/chat/chat-renderer.tsx");
    const loader = await import("./src/ui/ink/history/markdown-loader.ts");
    const before = ${HIGHLIGHTER_MODULES};
    const plain = loader.renderMarkdownWhenLoaded("# Title\\n\\n**bold**", false);
    await loader.loadMarkdown();
    const after = ${HIGHLIGHTER_MODULES};
    const rendered = loader.renderMarkdownWhenLoaded("# Title\\n\\n**bold**", false);
    console.log(JSON.stringify({ before, after: after > 0, plain, rendered, loaded: loader.markdownLoaded() }));
  `);
  const result = JSON.parse(out);
  expect(result.before).toBe(0);
  expect(result.after).toBe(true);
  expect(result.plain).toBe("# Title\n\n**bold**");
  expect(result.rendered).not.toContain("**");
  expect(result.rendered).toContain("bold");
  expect(result.loaded).toBe(true);
});

test("a chat's ready() resolves with the markdown renderer loaded, after the first frame is written", async () => {
  const out = await inFreshProcess(`
    const { FakeTtyIn, FakeTtyOut } = await import("./test/ui/fake-tty.ts");
    const loader = await import("./src/ui/ink/history/markdown-loader.ts");
    const { createInkChat } = await import("./src/ui/ink/chat/chat-renderer.tsx");
    const stdout = new FakeTtyOut();
    const chat = await createInkChat({
      colors: false,
      onInterrupt() {},
      stdin: new FakeTtyIn().asStream(),
      stdout: stdout.asStream(),
      welcome: { model: "anthropic:m", workspace: "/w" },
    });
    const loadedAtOpen = loader.markdownLoaded();
    await chat.ready();
    const frame = stdout.text;
    // Ink routes console.log into its view (patchConsole): the result goes straight to the real stdout.
    process.stdout.write(JSON.stringify({ loadedAtOpen, loaded: loader.markdownLoaded(), opening: frame.includes("model anthropic:m") }));
    await chat.close();
    process.exit(0);
  `);
  const result = JSON.parse(out);
  expect(result.loadedAtOpen).toBe(false);
  expect(result.loaded).toBe(true);
  expect(result.opening).toBe(true);
});
