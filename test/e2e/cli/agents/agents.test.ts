import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, runAgent, type Sandbox } from "../../../cli/run-agent.ts";

let sandbox: Sandbox;
let cwd: string;

beforeEach(() => {
  sandbox = makeSandbox();
  cwd = join(sandbox.dir, "project");
  mkdirSync(join(cwd, ".agent", "agents"), { recursive: true });
});
afterEach(() => {
  sandbox.cleanup();
});

const BOOTSTRAP = ["code-editor", "code-reader", "command-runner", "root"];

function agents(args: string[]) {
  return runAgent(["agents", ...args], { env: sandbox.env(), cwd });
}

function projectSpec(file: string, text: string): string {
  const path = join(cwd, ".agent", "agents", file);
  writeFileSync(path, text);
  return path;
}

const BROKEN =
  "name: bad\ndescription: broken on purpose\nsystem_prompt: hi\nconstraints:\n  max_turns: lots\n";

describe("agent agents with only the bootstrap specs", () => {
  test("validate: exit 0 and the count", async () => {
    const result = await agents(["validate"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${BOOTSTRAP.length} specs valid\n`);
  });

  test("list: one row per agent with model, scope, capabilities and source file", async () => {
    const result = await agents(["list"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^NAME\s+MODEL\s+SCOPE\s+CAPABILITIES\s+SOURCE$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(BOOTSTRAP);
    const reader = lines.find((l) => l.startsWith("code-reader"));
    expect(reader).toMatch(
      /^code-reader\s+fast\s+bootstrap\s+read_file, grep, glob\s+\S*bootstrap\/code-reader\.yaml$/,
    );
  });

  test("list --json carries every field", async () => {
    const result = await agents(["list", "--json"]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.errors).toEqual([]);
    expect(output.agents.map((a: { name: string }) => a.name)).toEqual(BOOTSTRAP);
    expect(output.agents[3]).toMatchObject({
      name: "root",
      model: "best",
      scope: "bootstrap",
      overrides: [],
    });
  });

  test("show NAME prints the spec with its system prompt", async () => {
    const result = await agents(["show", "code-reader"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("name: code-reader");
    expect(result.stdout).toContain("model: fast");
    expect(result.stdout).toContain("bootstrap spec");
    expect(result.stdout).toContain("system_prompt: |");
    expect(result.stdout).toContain("You are code-reader, a read-only code investigator");
  });

  test("show with an unknown NAME: exit 2 naming the available agents", async () => {
    const result = await agents(["show", "nobody"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain('unknown agent "nobody"');
    for (const name of BOOTSTRAP) expect(result.stderr).toContain(name);
  });
});

describe("agent agents with project specs", () => {
  test("a project spec overriding a bootstrap one is marked in list and show", async () => {
    projectSpec(
      "reader.yaml",
      "name: code-reader\ndescription: mine\nsystem_prompt: read\ncapabilities: [grep]\n",
    );
    const list = await agents(["list"]);
    expect(list.code).toBe(0);
    const row = list.stdout.split("\n").find((l) => l.startsWith("code-reader"));
    expect(row).toMatch(
      /project\s+grep\s+\.agent\/agents\/reader\.yaml \(overrides bootstrap \S+code-reader\.yaml\)/,
    );
    const show = await agents(["show", "code-reader"]);
    expect(show.stdout).toContain("# overrides bootstrap");
    expect(show.stdout).toContain("description: mine");
  });

  test("validate with a broken spec: exit 3, FILE:LINE: FIELD: expected ... on stderr", async () => {
    const file = projectSpec("bad.yaml", BROKEN);
    const result = await agents(["validate"]);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`${file}:5: constraints.max_turns: expected a number`);
  });

  test("validate: a misspelt field names the nearest known one (issue 21, item 10)", async () => {
    const file = projectSpec(
      "typo.yaml",
      "name: typo\ndescription: misspelt\nsystem_prompt: hi\ncapabilites: [read_file]\n",
    );
    const result = await agents(["validate"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file}:4: capabilites: unknown field; did you mean "capabilities"?`);
  });

  test("validate: a field far from every known one gets no suggestion", async () => {
    projectSpec("odd.yaml", "name: odd\ndescription: odd\nsystem_prompt: hi\nzzz: 1\n");
    const result = await agents(["validate"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("zzz: unknown field; expected one of:");
    expect(result.stderr).not.toContain("did you mean");
  });

  test("every error is reported, not just the first", async () => {
    const bad = projectSpec("bad.yaml", BROKEN);
    const worse = projectSpec(
      "worse.yaml",
      "name: worse\nsystem_prompt: s\ncapabilities: [read_file, teleport]\n",
    );
    const result = await agents(["validate"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${bad}:5: constraints.max_turns:`);
    expect(result.stderr).toContain(`${worse}:1: description: missing`);
  });

  test("list and show with a broken spec still report the valid ones, with exit 3", async () => {
    const file = projectSpec("bad.yaml", BROKEN);
    const list = await agents(["list"]);
    expect(list.code).toBe(3);
    expect(
      list.stdout
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(BOOTSTRAP);
    expect(list.stderr).toContain(`${file}:5: constraints.max_turns`);

    const show = await agents(["show", "root"]);
    expect(show.code).toBe(3);
    expect(show.stdout).toContain("name: root");
    expect(show.stderr).toContain(`${file}:5:`);
  });
});
