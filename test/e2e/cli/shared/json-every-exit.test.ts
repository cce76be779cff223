/**
 * `--output json` / `-o stream-json` on `agent run` and `--json` / `-o json` on `agent helper` print
 * exactly one JSON object on every exit (docs/ci-and-json.md "Machine-readable output"): usage errors (2, commander's
 * own included), configuration, spec and key errors (3), provider errors (4), with
 * `{"status":"error","error":{"kind","message"},"exit_code"}`. Without a TTY, against the fake server.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";
import { expectJsonShape } from "../../../support/json-shape.ts";

const fx = withFakeServerAndSandbox();

function keyed(): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-json-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });
}

/** The one JSON object of stdout (fails unless stdout is exactly one line holding one object). */
function onlyObject(stdout: string): Record<string, unknown> {
  const lines = stdout.split("\n");
  expect(lines.at(-1)).toBe("");
  expect(lines).toHaveLength(2);
  const value = JSON.parse(lines[0] ?? "") as Record<string, unknown>;
  expectJsonShape(value);
  return value;
}

function expectError(stdout: string, code: number, kind: string | RegExp): Record<string, unknown> {
  const object = onlyObject(stdout);
  expect(object).toMatchObject({ type: "result", schema_version: 2, status: "error", exit_code: code });
  const error = object.error as { kind: string; message: string };
  expect(error.kind).toMatch(kind);
  expect(error.message.length).toBeGreaterThan(0);
  return object;
}

const MODES = [
  { command: "run", json: ["-o", "json"] },
  { command: "run", json: ["--output", "stream-json"] },
  { command: "helper", json: ["--json"] },
  { command: "helper", json: ["-o", "json"] },
] as const;

describe("one JSON object on every exit", () => {
  for (const mode of MODES) {
    const label = `${mode.command} ${mode.json.join(" ")}`;

    test(`${label}: an unknown option is a usage error (2) with a suggestion on stderr`, async () => {
      const result = await runAgent([mode.command, ...mode.json, "--modle", "fast", "hi"], { env: keyed() });
      expect(result.code).toBe(2);
      const object = expectError(result.stdout, 2, "usage");
      expect((object.error as { message: string }).message).toContain("--modle");
      expect(result.stderr).toContain("Did you mean --model?");
    });

    test(`${label}: no goal or prompt is a usage error (2)`, async () => {
      const result = await runAgent([mode.command, ...mode.json], { env: keyed(), stdin: "" });
      expect(result.code).toBe(2);
      expectError(result.stdout, 2, "usage");
    });

    test(`${label}: no key is a configuration error (3)`, async () => {
      const result = await runAgent([mode.command, ...mode.json, "hello"], { env: fx.sandbox.env() });
      expect(result.code).toBe(3);
      expectError(result.stdout, 3, "config");
      expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    });

    test(`${label}: a rejected key is a provider error (4)`, async () => {
      fx.server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
      const result = await runAgent([mode.command, ...mode.json, "hello"], { env: keyed() });
      expect(result.code).toBe(4);
      const lines = result.stdout.trim().split("\n");
      const last = JSON.parse(lines.at(-1) ?? "") as Record<string, unknown>;
      expect(last).toMatchObject({ type: "result", status: "error", exit_code: 4 });
      expect((last.error as { kind: string }).kind).toBe("auth");
      // stream-json has its event lines before; json modes print the result alone.
      if (!(mode.json as readonly string[]).includes("stream-json")) expect(lines).toHaveLength(1);
      expect(lines.filter((line) => line.includes('"type":"result"'))).toHaveLength(1);
    });
  }

  test("run -o json: a broken spec is a spec error (3) in the JSON object", async () => {
    const workspace = join(fx.sandbox.dir, "ws-broken-spec");
    mkdirSync(join(workspace, ".agent", "agents"), { recursive: true });
    writeFileSync(join(workspace, ".agent", "agents", "root.yaml"), "name: root\nmodel: [unclosed\n");
    const result = await runAgent(["run", "-o", "json", "hello"], { env: keyed(), cwd: workspace });
    expect(result.code).toBe(3);
    expectError(result.stdout, 3, /spec|config/);
  });

  test("text mode prints nothing on stdout for the same usage error", async () => {
    const result = await runAgent(["run", "--modle", "fast", "hi"], { env: keyed() });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
  });
});
