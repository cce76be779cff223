/** The caps and filters on what one MCP server offers the model (src/tools/mcp/tool-limits.ts). */
import { describe, expect, test } from "bun:test";
import type { McpToolInfo } from "../../../src/tools/mcp/connection.ts";
import { capInstructions, limitTools, TRUNCATED_NOTE } from "../../../src/tools/mcp/tool-limits.ts";

const schema = { type: "object" as const, properties: {} };
const tool = (name: string, description = `does ${name}`): McpToolInfo => ({
  name,
  description,
  inputSchema: schema,
});

describe("limitTools", () => {
  test("a description past max_description_chars is cut with a note, and the warning names server and tool", () => {
    const huge = "x".repeat(1_000_000);
    const { tools, warnings } = limitTools("docs", [tool("search", huge), tool("fetch")]);
    expect(tools.map((t) => t.name)).toEqual(["search", "fetch"]);
    expect(tools[0]?.description).toBe(`${"x".repeat(2048)}${TRUNCATED_NOTE}`);
    expect(tools[1]?.description).toBe("does fetch");
    expect(warnings).toEqual([
      "MCP server docs: tool search's description is 1000000 characters; cut to 2048 (max_description_chars)",
    ]);
  });

  test("definitions past max_tools_bytes are dropped, later tools first, in one warning naming each", () => {
    const many = Array.from({ length: 200 }, (_, i) => tool(`tool_${i}`, "d".repeat(100)));
    const { tools, warnings } = limitTools("big", many, { maxToolsBytes: 2_000 });
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.length).toBeLessThan(200);
    expect(tools.map((t) => t.name)).toEqual(many.slice(0, tools.length).map((t) => t.name));
    const dropped = many.slice(tools.length).map((t) => t.name);
    expect(warnings).toEqual([
      `MCP server big: ${dropped.length} tools dropped, past max_tools_bytes (2000 bytes of tool definitions): ${dropped.join(", ")}`,
    ]);
    const bytes = tools.reduce(
      (sum, t) =>
        sum + JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }).length,
      0,
    );
    expect(bytes).toBeLessThanOrEqual(2_000);
  });

  test("tools: keeps only the named tools, exclude_tools drops some; a name the server lacks is a warning", () => {
    const all = [tool("a"), tool("b"), tool("c")];
    expect(limitTools("s", all, { only: ["a", "c"] }).tools.map((t) => t.name)).toEqual(["a", "c"]);
    expect(limitTools("s", all, { exclude: ["b"] }).tools.map((t) => t.name)).toEqual(["a", "c"]);
    const missing = limitTools("s", all, { only: ["a", "zz"] });
    expect(missing.tools.map((t) => t.name)).toEqual(["a"]);
    expect(missing.warnings).toEqual(["MCP server s has no tool zz (named in its config)"]);
  });

  test("limits set in config replace the defaults", () => {
    const { tools, warnings } = limitTools("s", [tool("a", "abcdefghij")], { maxDescriptionChars: 4 });
    expect(tools[0]?.description).toBe(`abcd${TRUNCATED_NOTE}`);
    expect(warnings[0]).toContain("cut to 4 (max_description_chars)");
  });
});

test("capInstructions cuts server instructions past the cap", () => {
  expect(capInstructions("short")).toBe("short");
  expect(capInstructions("y".repeat(3000))).toBe(`${"y".repeat(2048)}${TRUNCATED_NOTE}`);
});
