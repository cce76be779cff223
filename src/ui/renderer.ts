/**
 * The renderer interface every output mode implements, and the chooser the CLI calls.
 * Ink is imported only on the interactive path (it costs ~140 ms to load and needs a TTY on stdin).
 */

import type { Usage } from "../kernel/conversation/usage.ts";
import type { Redactor } from "../kernel/text/redact.ts";
import { colorsEnabled } from "./ansi.ts";
import { JsonRenderer, StreamJsonRenderer } from "./json-renderers.ts";
import { PlainRenderer } from "./plain-renderer.ts";
import type { InterruptKeyName, OutputMode, Renderer, RendererKind, TextSink } from "./renderer-types.ts";

export type { OutputMode, Renderer, RendererKind, TextSink } from "./renderer-types.ts";
export type { FinishedRun } from "./result.ts";

/** What the chooser needs to know about the process; the CLI fills it from `process`. */
export interface RendererOptions {
  output: OutputMode;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** True when NO_COLOR is set (to anything non-empty). */
  noColor: boolean;
  /** Defaults to process.stdout / process.stderr. */
  stdout?: TextSink;
  stderr?: TextSink;
  /** Prices a model call for live cost in the status line (the model catalog); cost shows at the end otherwise. */
  costOf?: (model: string, usage: Usage) => number;
  /** Applied to every line the JSON renderers print. */
  redactor?: Redactor;
  /** Include `text_delta` lines in stream-json (default true). */
  includeTextDeltas?: boolean;
  /** Called when the user presses Ctrl-C while the Ink prompt holds raw mode (default: raise SIGINT). */
  onInterrupt?: (key?: InterruptKeyName) => void;
  /** Milliseconds between Ink state flushes (default 50). */
  flushMs?: number;
}

/**
 * Picks the renderer without loading anything: Ink only when stdin AND stdout are TTYs and the output is text;
 * plain text otherwise; the JSON renderers for `--output json|stream-json` whatever the terminal.
 */
export function selectRenderer(
  options: Pick<RendererOptions, "output" | "stdinIsTTY" | "stdoutIsTTY">,
): RendererKind {
  if (options.output === "json") return "json";
  if (options.output === "stream-json") return "stream-json";
  return options.stdinIsTTY && options.stdoutIsTTY ? "ink" : "plain";
}

/** Builds the renderer {@link selectRenderer} picks. Only the `ink` kind imports Ink (lazily). */
export async function chooseRenderer(options: RendererOptions): Promise<Renderer> {
  const kind = selectRenderer(options);
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  switch (kind) {
    case "ink": {
      // Ink (and React) load only for a terminal: a pipe or CI job never pays for them.
      const { createInkRenderer } = await import("./ink/run/ink-renderer.tsx");
      return createInkRenderer({
        // Ink only gets here with a TTY on stdin and stdout. Ink's own detection would turn live redraws
        // off whenever CI is set, and with them the approval prompt: a user at a terminal must see it.
        interactive: true,
        colors: !options.noColor,
        costOf: options.costOf,
        onInterrupt: options.onInterrupt,
        flushMs: options.flushMs,
      });
    }
    case "plain": {
      return new PlainRenderer({
        stdout,
        stderr,
        colors: colorsEnabled(options.stderrIsTTY, options.noColor),
        stdoutIsTTY: options.stdoutIsTTY,
      });
    }
    case "json":
    case "stream-json": {
      const json = {
        stdout,
        stderr,
        redactor: options.redactor,
        includeTextDeltas: options.includeTextDeltas,
      };
      return kind === "json" ? new JsonRenderer(json) : new StreamJsonRenderer(json);
    }
  }
}
