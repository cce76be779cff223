import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/kernel/index.ts";
import { buildRuleSet, defaultRules, parseRule } from "../../src/policy/rules.ts";

function parseError(text: string, source: "user" | "flag" = "user"): AppError {
  try {
    parseRule(text, "allow", source);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error(`expected ${text} to be rejected`);
}

describe("parseRule", () => {
  test("TOOL and TOOL:PATTERN", () => {
    expect(parseRule("exec", "ask", "user")).toEqual({
      effect: "ask",
      tool: "exec",
      source: "user",
      text: "exec",
    });
    expect(parseRule(" exec:npm test * ", "allow", "flag")).toEqual({
      effect: "allow",
      tool: "exec",
      pattern: "npm test *",
      source: "flag",
      text: "exec:npm test *",
    });
    expect(parseRule("write_file:src/**", "deny", "project").pattern).toBe("src/**");
    expect(parseRule("fetch:https://docs.example.com/*", "allow", "user").tool).toBe("fetch");
  });

  test("unknown tools are allowed when they look like identifiers (agent names)", () => {
    expect(parseRule("code-editor", "ask", "user").tool).toBe("code-editor");
    expect(parseError("rm -rf").message).toContain('"rm -rf" is not a tool name');
    expect(parseError("9lives").message).toContain("not a tool name");
  });

  test("malformed rules say what was expected", () => {
    const empty = parseError("  ");
    expect(empty.message).toContain("the rule is empty");
    expect(empty.message).toContain("expected TOOL or TOOL:PATTERN");
    expect(parseError("exec:").message).toContain('nothing after ":"');
    expect(parseError("write_file:/etc/*").message).toContain("workspace-relative");
    expect(parseError("write_file:../x").message).toContain("cannot leave the workspace");
    expect(parseError("write_file:!secret").message).toContain("negated patterns");
    expect(parseError("fetch:docs.example.com").message).toContain("fetch patterns are URLs");
    expect(parseError("exec:cd x && make").message).toContain("one simple command");
    expect(parseError("exec:make > log").message).toContain("one simple command");
    expect(parseRule("exec:echo 'a;b'", "allow", "user").pattern).toBe("echo 'a;b'");
  });

  test("flag errors are usage errors, config errors are config errors", () => {
    expect(parseError("exec:", "flag").kind).toBe("usage");
    expect(parseError("exec:", "user").kind).toBe("config");
  });
});

describe("defaultRules", () => {
  test("are exact read-only commands from source default", () => {
    const rules = defaultRules();
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      expect(rule).toMatchObject({ effect: "allow", tool: "exec", source: "default" });
      expect(rule.pattern).not.toContain("*");
    }
  });
});

describe("buildRuleSet", () => {
  test("collects user, flag and project rules with their sources", () => {
    const rules = buildRuleSet({
      defaults: false,
      user: { allow: ["exec:git *"], ask: ["fetch"], deny: ["exec:rm *"] },
      flags: { allow: ["write_file:src/**"], deny: ["exec:curl *"] },
      project: { ask: ["exec:git push *"], deny: ["write_file:.env"] },
    });
    expect(rules.map((r) => `${r.source} ${r.effect} ${r.text}`)).toEqual([
      "user allow exec:git *",
      "user ask fetch",
      "user deny exec:rm *",
      "flag allow write_file:src/**",
      "flag deny exec:curl *",
      "project ask exec:git push *",
      "project deny write_file:.env",
    ]);
  });

  test("includes the defaults unless told not to", () => {
    expect(buildRuleSet({}).length).toBe(defaultRules().length);
    expect(buildRuleSet({ defaults: false })).toEqual([]);
  });

  test("a project allow is rejected with a clear config error", () => {
    let caught: unknown;
    try {
      buildRuleSet({ project: { allow: ["exec:*"], file: ".agent/policy.yaml" } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    const error = caught as AppError;
    expect(error.kind).toBe("config");
    expect(error.message).toContain("project files may add only ask and deny rules");
    expect(error.message).toContain(".agent/policy.yaml");
    expect(error.details).toMatchObject({ file: ".agent/policy.yaml", field: "allow" });
  });

  test("a bad rule in a file names the file", () => {
    expect(() =>
      buildRuleSet({ user: { deny: ["exec:"], file: "/home/u/.config/agent/config.yaml" } }),
    ).toThrow("/home/u/.config/agent/config.yaml: invalid deny rule");
  });

  test("a rule naming an unknown tool is an error naming the known tools: usage for flags, config for files", () => {
    const knownTools = ["read_file", "exec", "code-editor"];
    const thrown = (input: Parameters<typeof buildRuleSet>[0]): AppError => {
      try {
        buildRuleSet({ ...input, knownTools });
      } catch (error) {
        return error as AppError;
      }
      throw new Error("expected an error");
    };
    const flag = thrown({ flags: { allow: ["exce:npm test"] } });
    expect(flag.kind).toBe("usage");
    expect(flag.message).toBe(
      '--allow "exce:npm test" names a tool that does not exist (exce); known tools: read_file, exec, code-editor',
    );
    const file = "/home/u/.config/agent/config.yaml";
    const config = thrown({ user: { deny: ["exec:rm *", "wirte_file:*.env"], file } });
    expect(config.kind).toBe("config");
    expect(config.message).toStartWith(`${file}: deny: "wirte_file:*.env" names a tool`);
    expect(config.details).toMatchObject({ file, field: "deny" });
    expect(thrown({ project: { ask: ["fech"], file: ".agent/config.yaml" } }).kind).toBe("config");
    // Agents are tools too, and without a list nothing is checked.
    expect(buildRuleSet({ flags: { allow: ["code-editor"] }, knownTools }).at(-1)?.tool).toBe("code-editor");
    expect(buildRuleSet({ flags: { allow: ["exce:npm test"] } }).at(-1)?.tool).toBe("exce");
  });
});
