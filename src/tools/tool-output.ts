/** The two steps every tool output takes once, in the pipeline: redaction, then truncation. */

import type { ImagePart, ToolOutput } from "../kernel/index.ts";
import type { Redactor } from "../kernel/text/redact.ts";
import { DISPLAY_LIMIT, MODEL_TEXT_LIMIT, truncateText } from "./truncate.ts";

/** An error result: the message for the model, its first line for the user. */
export function errorOutput(message: string): ToolOutput {
  const firstLine = message.split("\n", 1)[0] ?? message;
  return { modelText: `Error: ${message}`, display: `Error: ${firstLine}`, isError: true };
}

/** Redacts secrets from both texts (and a command's summary and tail), then truncates the texts (the
 * model's text to `modelLimit`, with a note); images past IMAGE_LIMIT become a note in the model's text. */
export function finishOutput(
  output: ToolOutput,
  redactor: Redactor,
  modelLimit: number = MODEL_TEXT_LIMIT,
): ToolOutput {
  const { images, notes } = withinImageLimit(output.images);
  const modelText = [redactor.redact(output.modelText), ...notes].join("\n");
  return {
    modelText: truncateText(modelText, modelLimit),
    display: truncateText(redactor.redact(output.display), DISPLAY_LIMIT),
    isError: output.isError,
    ...(output.summary !== undefined ? { summary: redactor.redact(output.summary) } : {}),
    ...(output.tail !== undefined ? { tail: output.tail.map((line) => redactor.redact(line)) } : {}),
    ...(images.length > 0 ? { images } : {}),
  };
}

/**
 * Base64 characters of images one result may carry. The Anthropic API refuses an image whose base64
 * payload passes 5 MB with a 400 (platform.claude.com/docs/en/build-with-claude/vision "General limits",
 * as quoted in shellicar/claude-cli#323), and an image once in the history is re-sent every turn; so one
 * result carries at most that much in all.
 */
export const IMAGE_LIMIT = 5 * 1024 * 1024;

/** The images that fit IMAGE_LIMIT, in order, and a note for each one left out. */
function withinImageLimit(images: readonly ImagePart[] = []): { images: ImagePart[]; notes: string[] } {
  const kept: ImagePart[] = [];
  const notes: string[] = [];
  let used = 0;
  for (const image of images) {
    if (used + image.data.length > IMAGE_LIMIT) {
      const kb = Math.ceil((image.data.length * 3) / 4 / 1024);
      notes.push(`[image ${image.mediaType} of ${kb} KB not shown: past the limit of images in one result]`);
      continue;
    }
    used += image.data.length;
    kept.push(image);
  }
  return { images: kept, notes };
}
