/**
 * The markdown renderer (markdown.ts), loaded when it is first needed rather than with the Ink views:
 * marked-terminal imports cli-highlight, and with it highlight.js, at its top level (about a third of
 * the chat's Ink import, ~250 ms), and the chat's first screen (its opening box and input box) shows no
 * markdown. The chat starts the load after its first frame and waits for it before anything markdown
 * reaches the history (chat-renderer.tsx `ready`); the run's renderer loads it with its module. Until it
 * is loaded, {@link renderMarkdownWhenLoaded} returns the text as it is.
 */
import type { renderMarkdown } from "./markdown.ts";

let loaded: typeof renderMarkdown | undefined;
let loading: Promise<void> | undefined;

/** Loads the markdown renderer once; every later call gets the same promise. */
export function loadMarkdown(): Promise<void> {
  loading ??= import("./markdown.ts").then((module) => {
    loaded = module.renderMarkdown;
  });
  return loading;
}

/** Whether {@link loadMarkdown} has finished. */
export function markdownLoaded(): boolean {
  return loaded !== undefined;
}

/** markdown.ts `renderMarkdown` once loaded; until then `text` unchanged (plain text, never lost). */
export function renderMarkdownWhenLoaded(text: string, colors: boolean, width?: number): string {
  return loaded === undefined ? text : loaded(text, colors, width);
}
