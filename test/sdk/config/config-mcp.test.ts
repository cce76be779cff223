/** `mcp_servers` and `trusted_projects` in the user config: normalized, and errors naming file, line and
 * field; a project config may declare servers but never trust itself. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AppError } from "../../../src/kernel/index.ts";
import { evaluate } from "../../../src/policy/evaluate.ts";
import { buildRuleSet } from "../../../src/policy/rules.ts";
import { loadConfig } from "../../../src/sdk/config/config.ts";
import { mcpSecrets, sessionMcpConfigs, startTarget } from "../../../src/sdk/mcp-session.ts";
import { loadProjectRules } from "../../../src/sdk/project/project-rules.ts";
import { userConfigHomePerTest } from "../../support/user-config.ts";

const user = userConfigHomePerTest("agent-config-mcp-");
const { write, failure } = user;

describe("mcp_servers in config", () => {
  test("run-time keys: tool_timeout_ms, the caps, tools/exclude_tools and sampling; a bad value names its field", async () => {
    write(
      "mcp_servers:\n  gh:\n    command: gh-mcp\n    tool_timeout_ms: 120000\n    max_description_chars: 500\n" +
        "    max_tools_bytes: 4096\n    tools: [search, get_issue]\n    exclude_tools: [delete_repo]\n    sampling: true\n",
    );
    const config = await loadConfig(user.env);
    expect(config.mcpServers.gh).toMatchObject({
      toolTimeoutMs: 120_000,
      sampling: true,
      limits: {
        maxDescriptionChars: 500,
        maxToolsBytes: 4096,
        only: ["search", "get_issue"],
        exclude: ["delete_repo"],
      },
    });
    const error = await failure("mcp_servers:\n  gh:\n    command: gh-mcp\n    tool_timeout_ms: soon\n");
    expect(error.message).toContain(
      "line 4: mcp_servers.gh.tool_timeout_ms: expected tool_timeout_ms: a number of milliseconds",
    );
  });

  test("stdio and HTTP servers are read with their defaults", async () => {
    write(
      "mcp_servers:\n  gh:\n    command: gh-mcp\n    args: [stdio]\n    env: {TOKEN: t}\n    trust: true\n" +
        "  docs:\n    url: http://127.0.0.1:3000/mcp\n    headers: {Authorization: Bearer x}\n    startup_timeout_ms: 500\n" +
        "trusted_projects: [/src/app]\n",
    );
    const config = await loadConfig(user.env);
    expect(config.mcpServers).toEqual({
      gh: {
        transport: "stdio",
        command: "gh-mcp",
        args: ["stdio"],
        env: { TOKEN: "t" },
        trust: true,
        startupTimeoutMs: 10_000,
      },
      docs: {
        transport: "http",
        url: "http://127.0.0.1:3000/mcp",
        headers: { Authorization: "Bearer x" },
        trust: false,
        startupTimeoutMs: 500,
      },
    });
    expect(config.trustedProjects).toEqual(["/src/app"]);
  });

  test("both command and url, or neither, is an error at the server's first line", async () => {
    const both = await failure("models: {}\nmcp_servers:\n  x:\n    command: a\n    url: http://h/mcp\n");
    expect(both.message).toContain("line 4");
    expect(both.message).toContain("mcp_servers.x");
    expect(both.message).toContain("either command (a stdio server) or url (HTTP)");
    const neither = await failure("mcp_servers:\n  x:\n    trust: true\n");
    expect(neither.message).toContain("either command");
  });

  test("a bad name, an unknown field and a relative trusted project each name file, line and field", async () => {
    const name = await failure("mcp_servers:\n  a/b:\n    command: x\n");
    expect(name.message).toContain("letters, digits, - and _");
    const field = await failure("mcp_servers:\n  a:\n    command: x\n    cmd: y\n");
    expect(field.message).toContain("line 4");
    expect(field.message).toContain(
      "expected command, args, env, cwd, url, headers, oauth, trust, startup_timeout_ms, tool_timeout_ms, max_description_chars, max_tools_bytes, tools, exclude_tools or sampling",
    );
    const relative = await failure("trusted_projects: [src/app]\n");
    expect(relative.message).toContain("expected an absolute path");
  });
});

describe("project servers", () => {
  function project(text: string): string {
    const dir = mkdtempSync(join(user.home, "proj-"));
    mkdirSync(join(dir, ".agent"));
    writeFileSync(join(dir, ".agent", "config.yaml"), text);
    return dir;
  }

  test("a project cannot trust itself", async () => {
    const dir = project(`trusted_projects: [${JSON.stringify(user.home)}]\n`);
    const error = await loadProjectRules(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toContain("not trusted_projects");
  });

  test("its servers join only when the user trusts the project; a user server of the same name wins", async () => {
    const dir = project("mcp_servers:\n  gh:\n    command: evil\n  local:\n    command: ./tool\n");
    const loaded = await loadProjectRules(dir);
    const user = { mcpServers: {}, trustedProjects: [] };
    const refused = sessionMcpConfigs(user, loaded, dir);
    expect(Object.keys(refused.servers)).toEqual([]);
    expect(refused.notices[0]?.message).toContain("declares MCP servers (gh, local) that are not used");
    const userGh = {
      transport: "stdio" as const,
      command: "gh-mcp",
      args: [],
      env: {},
      trust: false,
      startupTimeoutMs: 1,
    };
    const trusted = sessionMcpConfigs({ mcpServers: { gh: userGh }, trustedProjects: [dir] }, loaded, dir);
    expect(trusted.notices).toEqual([]);
    expect(trusted.servers.gh).toEqual(userGh);
    expect(trusted.servers.local).toMatchObject({
      command: "./tool",
      fromProject: join(dir, ".agent", "config.yaml"),
    });
  });

  test("starting one is put to the gate as an exec of its quoted command line, or a fetch of its URL", () => {
    const base = { trust: false, startupTimeoutMs: 1 };
    expect(
      startTarget({ transport: "stdio", command: "node", args: ["srv.js", "a b"], env: {}, ...base }),
    ).toEqual({
      tool: "exec",
      target: "node srv.js 'a b'",
    });
    expect(startTarget({ transport: "http", url: "http://h/mcp", headers: {}, ...base })).toEqual({
      tool: "fetch",
      target: "http://h/mcp",
    });
  });

  test("a project server's environment is part of the command line approved: a rule for the command alone does not cover it", () => {
    const base = { trust: false, startupTimeoutMs: 1, fromProject: "/p/.agent/config.yaml" };
    const env = { NODE_OPTIONS: "--require ./evil.js" };
    const start = startTarget({ transport: "stdio", command: "node", args: ["srv.js"], env, ...base });
    expect(start.target).toBe("NODE_OPTIONS='--require ./evil.js' node srv.js");
    const rules = buildRuleSet({ flags: { allow: ["exec:node *"] } });
    const request = { tool: "exec", targets: [start.target], readOnly: false, sensitive: false };
    expect(evaluate(request, rules).effect).toBe("ask");
  });
});

test("the credentials config hands servers are the redactor's: secret-named env and headers, not the rest", () => {
  const base = { trust: false, startupTimeoutMs: 1 };
  const secrets = mcpSecrets({
    gh: {
      transport: "stdio",
      command: "gh",
      args: [],
      env: { GITHUB_TOKEN: "ghx_t0ken", LANG: "C.UTF-8" },
      ...base,
    },
    web: {
      transport: "http",
      url: "http://127.0.0.1/mcp",
      headers: { Authorization: "Bearer b3arer-value", "X-API-Key": "k3y-value", Accept: "application/json" },
      ...base,
    },
  });
  expect(new Set(secrets)).toEqual(
    new Set(["ghx_t0ken", "Bearer b3arer-value", "b3arer-value", "k3y-value"]),
  );
});
