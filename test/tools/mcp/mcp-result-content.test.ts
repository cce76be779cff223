/** An MCP result as the model and the user see it (src/tools/mcp/result-content.ts), hostile images included. */
import { describe, expect, test } from "bun:test";
import type { CallToolResult } from "../../../src/tools/mcp/connection.ts";
import { outputOf, sniffImage } from "../../../src/tools/mcp/result-content.ts";

// A 1x1 PNG, and the first bytes of a JPEG, as base64.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]).toString("base64");

const result = (content: CallToolResult["content"], extra: Partial<CallToolResult> = {}): CallToolResult =>
  ({ content, ...extra }) as CallToolResult;

describe("images", () => {
  test("the type comes from the bytes: a JPEG a server calls PNG goes as JPEG", () => {
    const out = outputOf(result([{ type: "image", mimeType: "image/png", data: JPEG }]));
    expect(out.images).toEqual([{ type: "image", mediaType: "image/jpeg", data: JPEG }]);
  });

  test("bytes that are no image file, or not base64, are a note, never an image part", () => {
    const notImage = Buffer.from("<html>hello</html>").toString("base64");
    const out = outputOf(
      result([
        { type: "image", mimeType: "image/png", data: notImage },
        { type: "image", mimeType: "image/png", data: "***not base64***" },
      ]),
    );
    expect(out.images).toBeUndefined();
    expect(out.modelText).toBe(
      "[image image/png: not a valid image file, not shown]\n[image image/png: not a valid image file, not shown]",
    );
  });

  test("a type no provider takes (image/tiff, audio) is named, not sent", () => {
    const out = outputOf(
      result([
        { type: "image", mimeType: "image/tiff", data: PNG },
        { type: "audio", mimeType: "audio/wav", data: "AAAA" },
      ]),
    );
    expect(out.images).toBeUndefined();
    expect(out.modelText).toBe(
      "[image image/tiff: a type the model is not given]\n[audio audio/wav: a type the model is not given]",
    );
  });

  test("an image blob resource goes as an image", () => {
    const out = outputOf(
      result([{ type: "resource", resource: { uri: "file:///a.png", mimeType: "image/png", blob: PNG } }]),
    );
    expect(out.images?.[0]?.mediaType).toBe("image/png");
    expect(out.display).toBe("[image 1: image/png, attached] (+1 image)");
  });

  test("sniffImage knows the four signatures", () => {
    expect(sniffImage(PNG)).toBe("image/png");
    expect(sniffImage(JPEG)).toBe("image/jpeg");
    expect(sniffImage(Buffer.from("GIF89a......").toString("base64"))).toBe("image/gif");
    expect(sniffImage(Buffer.from("RIFF\u0000\u0000\u0000\u0000WEBPVP8 ").toString("base64"))).toBe(
      "image/webp",
    );
    expect(sniffImage("")).toBeUndefined();
  });
});

test("structured content is the text when the result has none, and an error result says Error", () => {
  expect(outputOf(result([], { structuredContent: { temperature: 22 } })).modelText).toBe(
    '{"temperature":22}',
  );
  const failed = outputOf(result([{ type: "text", text: "no such city" }], { isError: true }));
  expect(failed).toMatchObject({ modelText: "Error: no such city", isError: true });
});
