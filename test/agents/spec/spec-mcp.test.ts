/** `mcp:SERVER` and `mcp:SERVER/TOOL` capabilities: valid when config declares the server, an error at
 * their line naming the known servers otherwise; they never count as agents to delegate to. */
import { describe, expect, test } from "bun:test";
import { subAgentDefinitions } from "../../../src/agents/loop/sub-agents.ts";
import { mcpCapabilities } from "../../../src/agents/spec/spec.ts";
import { loadSpecTexts } from "../../../src/agents/spec/spec-loader.ts";

const spec = (caps: string) =>
  `name: a\ndescription: d\nsystem_prompt: s\ncapabilities:\n  - read_file\n  - ${caps}\n`;

describe("mcp: capabilities", () => {
  test("naming a declared server, whole or one tool, is valid and is no sub-agent", () => {
    for (const cap of ["mcp:github", "mcp:github/create_issue"]) {
      const result = loadSpecTexts([{ file: "a.yaml", text: spec(cap) }], undefined, ["github", "docs"]);
      expect(result.errors).toEqual([]);
      const loaded = result.specs.get("a");
      expect(loaded && mcpCapabilities(loaded)).toEqual([cap]);
      expect(loaded && subAgentDefinitions(loaded, result.specs)).toEqual({ definitions: [], missing: [] });
    }
  });

  test("an undeclared server is an error at its line naming the known servers", () => {
    const result = loadSpecTexts([{ file: "a.yaml", text: spec("mcp:gitlab/x") }], undefined, [
      "github",
      "docs",
    ]);
    expect(result.specs.has("a")).toBe(false);
    expect(result.errors[0]).toMatchObject({ file: "a.yaml", line: 6, field: "capabilities[1]" });
    expect(result.errors[0]?.message).toContain('names MCP server "gitlab"');
    expect(result.errors[0]?.message).toContain("known: github, docs");
    const none = loadSpecTexts([{ file: "a.yaml", text: spec("mcp:gitlab") }]);
    expect(none.errors[0]?.message).toContain("known: none");
  });

  test("a malformed mcp capability says what is expected", () => {
    for (const cap of ["mcp:", "mcp:github/"]) {
      const result = loadSpecTexts([{ file: "a.yaml", text: spec(`"${cap}"`) }], undefined, ["github"]);
      expect(result.errors[0]?.message).toContain("expected mcp:SERVER or mcp:SERVER/TOOL");
    }
  });
});
