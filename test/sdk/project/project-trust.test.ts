/**
 * Whether the user trusts a project (`trusted_projects`), asked once for hooks and for MCP servers alike:
 * the entry and the workspace compared as real paths, so a symlink, a trailing slash or `..` in either
 * names the directory it resolves to, and nothing else (not a parent, a sibling sharing a prefix, or a
 * subdirectory with its own `.agent/config.yaml`).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sessionMcpConfigs } from "../../../src/sdk/mcp-session.ts";
import { loadProjectRules, projectHooks } from "../../../src/sdk/project/project-rules.ts";

const base = mkdtempSync(join(tmpdir(), "agent-trust-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A project whose config declares a hook and an MCP server. */
function project(dir: string): string {
  mkdirSync(join(dir, ".agent"), { recursive: true });
  writeFileSync(
    join(dir, ".agent", "config.yaml"),
    "hooks:\n  on_stop:\n    - command: touch ran\nmcp_servers:\n  proj:\n    command: ./server\n",
  );
  return dir;
}

const proj = project(join(base, "proj"));
project(join(base, "proj-evil"));
const sub = project(join(proj, "sub"));
symlinkSync(proj, join(base, "link"));

/** What each mechanism decides for a workspace opened at `workspace` (as Workspace.open gives its real
 * path, and as `agent mcp list --cwd` passes it unresolved). */
async function decisions(trusted: string[], workspace: string) {
  const loaded = await loadProjectRules(workspace);
  const hooks = projectHooks(loaded, workspace, trusted).hooks !== undefined;
  const mcp =
    "proj" in sessionMcpConfigs({ mcpServers: {}, trustedProjects: trusted }, loaded, workspace).servers;
  return { hooks, mcp };
}

describe("trusted_projects", () => {
  test.each([
    ["the project's path", [proj], proj],
    ["the path with a trailing slash", [`${proj}/`], proj],
    ["a symlink to the project", [join(base, "link")], proj],
    ["a path through `..` that resolves to the project", [`${sub}/..`], proj],
    ["the project, opened through a symlink", [proj], join(base, "link")],
  ])("%s trusts it, for hooks and MCP servers alike", async (_, trusted, workspace) => {
    expect(await decisions(trusted, workspace)).toEqual({ hooks: true, mcp: true });
  });

  test.each([
    ["its parent", [base], proj],
    ["a sibling sharing its prefix", [join(base, "proj-evil")], proj],
    ["a `..` path that leaves it", [`${proj}/..`], proj],
    ["a subdirectory's own config, when only the project is trusted", [proj], sub],
    ["a trusted subdirectory, for the project above it", [sub], proj],
  ])("%s does not", async (_, trusted, workspace) => {
    expect(await decisions(trusted, workspace)).toEqual({ hooks: false, mcp: false });
  });
});
