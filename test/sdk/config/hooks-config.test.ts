/** `hooks:` in config.yaml: read into the session's hook lists; mistakes name file, line and field (exit 3). */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { AppError, ExitCode, exitCodeForAppError } from "../../../src/kernel/index.ts";
import { loadConfig } from "../../../src/sdk/config/config.ts";

let home: string;
let env: Record<string, string>;
let file: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "agent-hooks-config-"));
  env = { XDG_CONFIG_HOME: home };
  mkdirSync(join(home, "agent"));
  file = join(home, "agent", "config.yaml");
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function failure(text: string): Promise<AppError> {
  writeFileSync(file, text);
  const error = await loadConfig(env).catch((e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error(`expected a config error, got ${String(error)}`);
  expect(exitCodeForAppError(error.kind)).toBe(ExitCode.config);
  return error;
}

test("hooks are read with their match, command, timeout and the config's folder (what ./x.sh resolves against)", async () => {
  writeFileSync(
    file,
    [
      "hooks:",
      "  before_tool:",
      '    - {match: "exec:*", command: ./check.sh, timeout_ms: 5000}',
      "  after_tool:",
      '    - {match: "write_file:src/**", command: ./lint.sh}',
      "  on_stop:",
      "    - command: ./notify.sh",
      "trusted_projects: [/home/me/app]",
      "",
    ].join("\n"),
  );
  const config = await loadConfig(env);
  const dir = dirname(file);
  expect(config.hooks).toEqual({
    before_tool: [{ match: "exec:*", command: "./check.sh", timeoutMs: 5000, dir }],
    after_tool: [{ match: "write_file:src/**", command: "./lint.sh", dir }],
    on_stop: [{ command: "./notify.sh", dir }],
  });
  expect(config.trustedProjects).toEqual(["/home/me/app"]);
});

test("a misspelt hook field names file, line and field", async () => {
  const error = await failure(
    ["hooks:", "  before_tool:", "    - match: exec:*", "      comand: ./x.sh", ""].join("\n"),
  );
  expect(error.message).toContain(`${file} line 3`);
  expect(error.message).toContain("hooks.before_tool.0");
});

test("an unknown hook kind lists the known ones", async () => {
  const error = await failure(["hooks:", "  before_call: []", ""].join("\n"));
  expect(error.message).toBe(
    `${file} line 2: hooks.before_call: unknown field; did you mean "before_tool"? expected before_tool, after_tool, on_stop or on_notification`,
  );
});

test("a match that is not a rule is refused with the rule's own explanation", async () => {
  const error = await failure(
    ["hooks:", "  before_tool:", '    - {match: "write_file:/etc/**", command: x}', ""].join("\n"),
  );
  expect(error.message).toContain(
    `${file} line 3: hooks.before_tool.0.match: invalid match "write_file:/etc/**"`,
  );
  expect(error.message).toContain("file patterns are workspace-relative");
});

test("a timeout must be a positive number of milliseconds", async () => {
  const error = await failure(["hooks:", "  on_stop:", "    - {command: x, timeout_ms: 0}", ""].join("\n"));
  expect(error.message).toContain("hooks.on_stop.0.timeout_ms");
});
