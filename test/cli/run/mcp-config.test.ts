/**
 * MCP servers from config alone reach the main agent of `agent run` (in this process, no terminal, the
 * model scripted on the fake Anthropic server, the MCP fixture server as a real stdio server): the shape
 * of docs/mcp.md's first example, with no agent spec written. Its tools are offered in the first request,
 * a call runs only under an allow rule (off a terminal it is otherwise denied and reported), and an image
 * in a result shows as `(+1 image)` on the progress line, as docs/mcp.md says. A trusted project's server
 * reaches the root agent too, once its start is approved like an exec of its command line.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonLines, toolResultsOf } from "../../e2e/support.ts";
import { FIXTURE_SERVER } from "../../support/mcp-fixture.ts";
import { inProcessFixture } from "./in-process.ts";

const e2e = inProcessFixture();

/** docs/mcp.md's first example, with the fixture server for github-mcp-server. */
function writeUserConfig(env: Record<string, string> = {}): void {
  const dir = join(e2e.sandbox.configDir, "agent");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "config.yaml"),
    [
      "mcp_servers:",
      "  fixture:",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(FIXTURE_SERVER)}]`,
      `    env: ${JSON.stringify(env)}`,
      "",
    ].join("\n"),
  );
}

const toolNames = (i: number) =>
  (((e2e.server.requests[i]?.body ?? {}) as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

describe("MCP servers in config reach the root agent of agent run", () => {
  test("offered with no spec; a call allowed by a rule runs and the model reads its result", async () => {
    writeUserConfig();
    e2e.server.enqueue(
      { toolCalls: [{ name: "mcp__fixture__echo", args: { text: "hi" } }] },
      { text: "The server said hi." },
    );
    const result = await e2e.runAgent(["run", "--allow", "mcp:fixture/echo", "say hi through the server"]);
    expect(result.stderr).toContain("✓ mcp:fixture/echo");
    expect(result.code).toBe(0);
    expect(toolNames(0)).toContain("mcp__fixture__echo");
    expect(toolNames(0)).toContain("code-editor");
    expect(toolResultsOf(e2e.server.requests[1])[0]).toContain("echo: hi");
  });

  test("under the same rules: off a terminal an unallowed call is denied and reported", async () => {
    writeUserConfig();
    e2e.server.enqueue(
      { toolCalls: [{ name: "mcp__fixture__echo", args: { text: "hi" } }] },
      { text: "I could not call the server." },
    );
    const result = await e2e.runAgent(["run", "-o", "json", "say hi through the server"]);
    expect(result.code).toBe(0);
    const [json] = parseJsonLines(result.stdout);
    expect(json?.denials).toEqual([
      expect.objectContaining({
        target: "fixture/echo",
        decided_by: "default",
        suggested_allow: ["mcp:fixture/echo"],
      }),
    ]);
    expect(toolResultsOf(e2e.server.requests[1])[0]).not.toContain("echo: hi");
  });

  test("an image in a result: the progress line ends with (+1 image)", async () => {
    writeUserConfig({ FIXTURE_IMAGE: "1" });
    e2e.server.enqueue(
      { toolCalls: [{ name: "mcp__fixture__snapshot", args: {} }] },
      { text: "The page looks fine." },
    );
    const result = await e2e.runAgent(["run", "--allow", "mcp:fixture/snapshot", "look at the page"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/✓ mcp:fixture\/snapshot .*the page as it looks now.*\(\+1 image\)/);
  });

  test("a trusted project's server reaches the root agent once its start is approved", async () => {
    mkdirSync(join(e2e.sandbox.workspace, ".agent"), { recursive: true });
    writeFileSync(
      join(e2e.sandbox.workspace, ".agent", "config.yaml"),
      `mcp_servers:\n  proj:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]\n`,
    );
    const dir = join(e2e.sandbox.configDir, "agent");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "config.yaml"), `trusted_projects: [${JSON.stringify(e2e.sandbox.workspace)}]\n`);
    e2e.server.enqueue(
      { toolCalls: [{ name: "mcp__proj__echo", args: { text: "p" } }] },
      { text: "With it." },
    );
    const result = await e2e.runAgent([
      "run",
      "--allow",
      `exec:${process.execPath} ${FIXTURE_SERVER}`,
      "--allow",
      "mcp:proj/echo",
      "echo p through the project's server",
    ]);
    expect(result.code).toBe(0);
    expect(toolNames(0)).toContain("mcp__proj__echo");
    expect(toolResultsOf(e2e.server.requests[1])[0]).toContain("echo: p");
  });
});
