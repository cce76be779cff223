/** The two steps every tool output takes once, in the pipeline: redaction, then truncation. */

import type { Redactor, ToolOutput } from "../kernel/index.ts";
import { DISPLAY_LIMIT, MODEL_TEXT_LIMIT, truncateText } from "./truncate.ts";

/** An error result: the message for the model, its first line for the user. */
export function errorOutput(message: string): ToolOutput {
  const firstLine = message.split("\n", 1)[0] ?? message;
  return { modelText: `Error: ${message}`, display: `Error: ${firstLine}`, isError: true };
}

/** Redacts secrets from both texts (and a command's summary and tail), then truncates the texts (the model's text to `modelLimit`, with a note). */
export function finishOutput(
  output: ToolOutput,
  redactor: Redactor,
  modelLimit: number = MODEL_TEXT_LIMIT,
): ToolOutput {
  return {
    modelText: truncateText(redactor.redact(output.modelText), modelLimit),
    display: truncateText(redactor.redact(output.display), DISPLAY_LIMIT),
    isError: output.isError,
    ...(output.summary !== undefined ? { summary: redactor.redact(output.summary) } : {}),
    ...(output.tail !== undefined ? { tail: output.tail.map((line) => redactor.redact(line)) } : {}),
  };
}
