/**
 * Worker entry for grep: runs one search and posts the reply. It lives in a worker so the caller can
 * terminate it (a pattern such as `(a+)+$` can backtrack for longer than anyone will wait, and would
 * otherwise block the event loop: no timeout, Ctrl-C or SIGTERM could act; JavaScriptCore gives up on one
 * line after about a second and answers "no match", but a file of thousands of such lines held the loop
 * for an hour). Agents' grep tools have been reported for the same class: anthropics/claude-code #54394,
 * BaseIntelligence/bounty-challenge #5648 (a user regex in a grep tool, `(a+)+$`). Listed as an entrypoint of
 * `bun run build` so the compiled binary carries it (bun-types docs/bundler/executables.mdx, "Worker").
 */
import { type GrepRequest, searchFiles } from "./grep-search.ts";

declare const self: Worker;

self.onmessage = async (event: MessageEvent<GrepRequest>) => {
  try {
    const reply = await searchFiles(event.data, (progress) => self.postMessage({ progress }));
    self.postMessage({ ok: true, reply });
  } catch (error) {
    self.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
  }
};
