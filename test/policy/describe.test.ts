import { describe, expect, test } from "bun:test";
import { describeAction } from "../../src/policy/describe.ts";

describe("describeAction: what is being decided, in words", () => {
  test("exec: run and the command as the model wrote it, on one line, cut with an ellipsis", () => {
    const command = `node -e "import('./greet.js').then(m=>console.log(m.greet('a very long name indeed')))"`;
    expect(describeAction("exec", { command }, [command], 40)).toBe(
      `run node -e "import('./greet.js').then(m=>c…`,
    );
    expect(describeAction("exec", { command: "seq 1 300" }, ["seq 1 300"])).toBe("run seq 1 300");
    expect(describeAction("exec", { command: "cd a\nmake" }, [])).toBe("run cd a ⏎ make");
  });

  test("file tools name their workspace-relative paths", () => {
    expect(describeAction("edit_file", { path: "./greet.js" }, ["greet.js"])).toBe("edit greet.js");
    expect(describeAction("write_file", { path: "src/a.ts", content: "x" }, ["src/a.ts"])).toBe(
      "write src/a.ts",
    );
  });

  test("a patch says what it does to each file", () => {
    const patch = [
      "*** Begin Patch",
      "*** Update File: greet.js",
      "@@",
      "-a",
      "+b",
      "*** Add File: b.js",
      "+x",
      "*** Delete File: old.js",
      "*** Update File: c.js",
      "*** Move to: lib/c.js",
      "@@",
      "-c",
      "+d",
      "*** End Patch",
    ].join("\n");
    expect(describeAction("apply_patch", { patch }, ["greet.js", "b.js", "old.js", "c.js", "lib/c.js"])).toBe(
      "apply patch: update greet.js, add b.js, delete old.js, move c.js to lib/c.js",
    );
    expect(describeAction("apply_patch", { patch: "not a patch" }, ["x.js"])).toBe(
      "apply patch: change x.js",
    );
  });

  test("fetch, MCP tools and sub-agents", () => {
    expect(describeAction("fetch", { url: "https://example.com/a" }, ["https://example.com/a"])).toBe(
      "fetch https://example.com/a",
    );
    expect(describeAction("mcp", { title: "x" }, ["github/create_issue"])).toBe(
      "call mcp github/create_issue",
    );
    expect(describeAction("code-reader", { goal: "find the parser" }, [])).toBe(
      "delegate to code-reader: find the parser",
    );
  });
});
