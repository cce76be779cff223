/**
 * An MCP tool result (CallToolResult, MCP schema 2025-06-18 "Tool Result") as a ToolOutput: text parts
 * as they are; images the model can take (png, jpeg, gif, webp) as image parts after the text, with a
 * marker where each stood; a text resource inline; a binary or linked resource as a described reference
 * (the model cannot fetch it, but can name it); structured content as JSON when no text says it; what
 * the user sees stays a one-line summary.
 */
import { type ImagePart, isImageMediaType, type ToolOutput } from "../../kernel/index.ts";
import type { CallToolResult } from "./connection.ts";

type Part = CallToolResult["content"][number];

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
    isError,
    ...(images.length > 0 ? { images } : {}),
  };
}

/** An image part, or an image-typed blob resource, the model can take. */
function imageOf(part: Part): ImagePart | undefined {
  if (part.type === "image" && isImageMediaType(part.mimeType))
    return { type: "image", mediaType: part.mimeType, data: part.data };
  if (part.type === "resource" && "blob" in part.resource) {
    const type = part.resource.mimeType ?? "";
    if (isImageMediaType(type)) return { type: "image", mediaType: type, data: part.resource.blob };
  }
  return undefined;
}

function textOf(part: Part): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "image":
    case "audio":
      return `[${part.type} ${part.mimeType}: a type the model is not given]`;
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
