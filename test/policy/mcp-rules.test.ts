/** Rules for MCP tools: `mcp:SERVER/TOOL` is an ordinary TOOL:PATTERN rule (tool `mcp`); MCP calls ask by
 * default unless the tool claims read-only and the user trusts its server. */
import { describe, expect, test } from "bun:test";
import { evaluate } from "../../src/policy/evaluate.ts";
import { sessionGrantRules } from "../../src/policy/gate.ts";
import { buildRuleSet, parseRule } from "../../src/policy/rules.ts";
import type { PolicyRequest } from "../../src/policy/types.ts";

const call = (target: string, extra: Partial<PolicyRequest> = {}): PolicyRequest => ({
  tool: "mcp",
  targets: [target],
  readOnly: false,
  sensitive: false,
  ...extra,
});

describe("MCP rules", () => {
  test("mcp:SERVER/TOOL and mcp:SERVER/* parse as tool mcp with a pattern", () => {
    expect(parseRule("mcp:github/create_issue", "allow", "flag")).toMatchObject({
      tool: "mcp",
      pattern: "github/create_issue",
      text: "mcp:github/create_issue",
    });
    expect(parseRule("mcp:github/*", "deny", "user")).toMatchObject({ tool: "mcp", pattern: "github/*" });
  });

  test("an exact rule matches one tool; a server pattern matches all of its tools and no other server's", () => {
    const rules = buildRuleSet({ flags: { allow: ["mcp:github/create_issue"], deny: ["mcp:shell/*"] } });
    expect(evaluate(call("github/create_issue"), rules).effect).toBe("allow");
    expect(evaluate(call("github/delete_repo"), rules).effect).toBe("ask");
    expect(evaluate(call("shell/run"), rules).effect).toBe("deny");
    expect(evaluate(call("shellfish/run"), rules).effect).toBe("ask");
  });

  test("by default an MCP call asks, read-only or not, unless the server is trusted and the tool read-only", () => {
    const rules = buildRuleSet({});
    expect(evaluate(call("docs/search"), rules).effect).toBe("ask");
    expect(evaluate(call("docs/search", { readOnly: true }), rules).effect).toBe("ask");
    expect(evaluate(call("docs/write", { trusted: true }), rules).effect).toBe("ask");
    const trusted = evaluate(call("docs/search", { readOnly: true, trusted: true }), rules);
    expect(trusted.effect).toBe("allow");
    expect(trusted.reason).toContain("trusted server's read-only tool");
    // A deny or ask rule still wins over the trusted default.
    const denied = buildRuleSet({ user: { deny: ["mcp:docs/*"] } });
    expect(evaluate(call("docs/search", { readOnly: true, trusted: true }), denied).effect).toBe("deny");
  });

  test("mcp:SERVER, the capability's form for a whole server, is a rule for every tool of that server", () => {
    const rules = buildRuleSet({ user: { deny: ["mcp:docs"] }, flags: { allow: ["mcp:github"] } });
    expect(evaluate(call("docs/search", { readOnly: true, trusted: true }), rules).effect).toBe("deny");
    expect(evaluate(call("github/create_issue"), rules).effect).toBe("allow");
    expect(evaluate(call("docsearch/search"), rules).effect).toBe("ask");
    expect(evaluate(call("githubber/x"), rules).effect).toBe("ask");
  });

  test("a bare mcp rule covers every MCP tool", () => {
    const rules = buildRuleSet({ flags: { allow: ["mcp"] } });
    expect(evaluate(call("any/tool"), rules).effect).toBe("allow");
  });

  test("yes for this session grants that one tool", () => {
    expect(sessionGrantRules(call("github/create_issue")).map((r) => r.text)).toEqual([
      "mcp:github/create_issue",
    ]);
  });
});

describe("a flag rule naming an MCP server the session does not have", () => {
  test("is a usage error naming the configured servers, so a misspelt --deny cannot deny nothing", () => {
    const build = (deny: string[]) => () => buildRuleSet({ flags: { deny }, mcpServers: ["github", "docs"] });
    expect(build(["mcp:githb/*"])).toThrow(
      '--deny "mcp:githb/*" names an MCP server this session does not have; configured MCP servers: docs, github',
    );
    expect(build(["mcp:githb"])).toThrow("names an MCP server this session does not have");
    // Known servers, every-server globs and the bare tool pass.
    expect(build(["mcp:github/*", "mcp:docs", "mcp:*/delete_*", "mcp"])).not.toThrow();
  });

  test("with no server configured it says so; config rules are not checked (they may name other projects' servers)", () => {
    expect(() => buildRuleSet({ flags: { allow: ["mcp:github/x"] }, mcpServers: [] })).toThrow(
      "no MCP server is configured",
    );
    expect(() => buildRuleSet({ user: { deny: ["mcp:elsewhere/*"] }, mcpServers: [] })).not.toThrow();
  });
});
