/**
 * A clean redraw when the terminal gets narrower. Terminals that reflow (tmux, iTerm2, VS Code, Windows
 * Terminal) rewrap every line of Ink's live frame that is wider than the new width, so the frame takes
 * more rows than Ink 8 erases before drawing again (node_modules/ink/build/ink.js `resized`: on a width
 * decrease it erases the frame's old line count), and keep the cursor's row, pushing the top of the
 * rewrapped frame into the scrollback, where no erase reaches: a torn approval box stays in the history.
 * Gemini CLI clears the terminal and its scrollback on a width change and prints its history again
 * (google-gemini/gemini-cli packages/cli/src/ui/AppContainer.tsx `refreshStatic`, which writes
 * ansiEscapes.clearTerminal); this does the same: the screen and scrollback are cleared (ED 2 and ED 3,
 * ECMA-48 / xterm ctlseqs "Erase in Display") and the view prints its history again (UiStore.replay).
 */

/** Clears the screen and the scrollback, cursor home. */
export const CLEAR_SCREEN_AND_SCROLLBACK = "\u001b[2J\u001b[3J\u001b[H";

/** Whether Ink runs interactively (live frames) with these options: Ink 8's own rule (ink.js
 * `resolveInteractiveOption`: not in CI (is-in-ci: CI or CONTINUOUS_INTEGRATION set and not 0/false)
 * and stdout a TTY), unless forced. Non-interactive Ink draws no live frame, so nothing can tear. */
export function inkInteractive(
  stdout: { isTTY?: boolean },
  forced: boolean | undefined,
  env: Record<string, string | undefined> = process.env,
): boolean {
  const set = (key: string): boolean => key in env && env[key] !== "0" && env[key] !== "false";
  return forced ?? (!(set("CI") || set("CONTINUOUS_INTEGRATION")) && stdout.isTTY === true);
}

/** The part of a TTY stream the guard uses. */
export interface ResizableStream {
  columns?: number;
  write(text: string): unknown;
  prependListener(event: "resize", listener: () => void): unknown;
  off(event: "resize", listener: () => void): unknown;
}

/**
 * Listens for resizes ahead of Ink (its listener is added when it mounts; this one goes first): when
 * the width decreases, clears screen and scrollback and calls `replay` to print the history again.
 * Returns the function that stops listening.
 */
export function guardResize(stdout: ResizableStream, replay: () => void): () => void {
  let columns = stdout.columns ?? 80;
  const onResize = (): void => {
    const now = stdout.columns ?? columns;
    if (now < columns) {
      stdout.write(CLEAR_SCREEN_AND_SCROLLBACK);
      replay();
    }
    columns = now;
  };
  stdout.prependListener("resize", onResize);
  return () => stdout.off("resize", onResize);
}
