/**
 * An MCP tool result (CallToolResult, MCP schema 2025-06-18 "Tool Result") as a ToolOutput: text parts
 * as they are; images the model can take (png, jpeg, gif, webp) as image parts after the text, with a
 * marker where each stood; a text resource inline; a binary or linked resource as a described reference
 * (the model cannot fetch it, but can name it); structured content as JSON when no text says it; what
 * the user sees stays a one-line summary.
 */
import {
  type ImageMediaType,
  type ImagePart,
  isImageMediaType,
  type ToolOutput,
} from "../../kernel/index.ts";
import type { CallToolResult } from "./connection.ts";

type Part = CallToolResult["content"][number];

/** The width progress lines and the terminal UI give a call's summary (src/ui oneLine(summary, 80)). */
const SUMMARY_WIDTH = 80;

/** `text` on one line, at most `width` characters (cut with "…"). */
function cutLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
}

export function outputOf(result: CallToolResult): ToolOutput {
  const texts: string[] = [];
  const images: ImagePart[] = [];
  for (const part of result.content ?? []) {
    const image = imageOf(part);
    if (image) {
      images.push(image);
      texts.push(`[image ${images.length}: ${image.mediaType}, attached]`);
    } else texts.push(textOf(part));
  }
  // The spec asks a server sending structured content to send it as text too; when it does not, the JSON
  // is the text.
  if (result.structuredContent !== undefined && !(result.content ?? []).some((p) => p.type === "text"))
    texts.push(JSON.stringify(result.structuredContent));
  const text = texts.join("\n");
  const isError = result.isError === true;
  const modelText = isError ? `Error: ${text}` : text;
  const firstLine = modelText.split("\n", 1)[0] ?? "";
  const more = images.length > 0 ? ` (+${images.length} ${images.length === 1 ? "image" : "images"})` : "";
  return {
    modelText,
    display: `${firstLine}${more}`,
    // Progress lines and the terminal UI cut a summary to one line of SUMMARY_WIDTH: the image count is
    // kept whole after a first line cut to fit.
    ...(more !== "" ? { summary: `${cutLine(firstLine, SUMMARY_WIDTH - more.length)}${more}` } : {}),
    isError,
    ...(images.length > 0 ? { images } : {}),
  };
}

/** An image part, or an image-typed blob resource, the model can take: its bytes must be base64 of a
 * PNG, JPEG, GIF or WebP file (the type is read from the bytes, not taken from the server). A server's
 * bad image would otherwise fail every later request that re-sends it. */
function imageOf(part: Part): ImagePart | undefined {
  const claimed =
    part.type === "image" ? part.mimeType : part.type === "resource" ? part.resource.mimeType : undefined;
  const data =
    part.type === "image"
      ? part.data
      : part.type === "resource" && "blob" in part.resource
        ? part.resource.blob
        : undefined;
  if (claimed === undefined || data === undefined || !isImageMediaType(claimed)) return undefined;
  const actual = sniffImage(data);
  return actual !== undefined ? { type: "image", mediaType: actual, data } : undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The image type the bytes begin with (file signatures: PNG 89 50 4E 47, JPEG FF D8 FF, GIF "GIF8",
 * WebP "RIFF"...."WEBP"), or undefined when `data` is not base64 of one of them. */
export function sniffImage(data: string): ImageMediaType | undefined {
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return undefined;
  const head = Buffer.from(data.slice(0, 24), "base64");
  const ascii = (from: number, to: number) => head.subarray(from, to).toString("latin1");
  if (head[0] === 0x89 && ascii(1, 4) === "PNG") return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(0, 4) === "GIF8") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

function textOf(part: Part): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "image":
      return isImageMediaType(part.mimeType)
        ? `[image ${part.mimeType}: not a valid image file, not shown]`
        : `[image ${part.mimeType}: a type the model is not given]`;
    case "audio":
      return `[audio ${part.mimeType}: a type the model is not given]`;
    case "resource": {
      const resource = part.resource;
      if ("text" in resource) return resource.text;
      const bytes = Math.floor((resource.blob.length * 3) / 4);
      return `[resource ${resource.uri} (${resource.mimeType ?? "binary"}, ${bytes} bytes): binary content not shown]`;
    }
    case "resource_link": {
      const about = [part.mimeType, part.description].filter((x) => x !== undefined && x !== "").join("; ");
      return `[resource link ${part.name}: ${part.uri}${about !== "" ? ` (${about})` : ""}]`;
    }
    default:
      return "[content of an unknown type]";
  }
}
