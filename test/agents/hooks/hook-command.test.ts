import { describe, expect, test } from "bun:test";
import { resolveHookCommand } from "../../../src/agents/hooks/hook-command.ts";

const DIR = "/home/me/.config/agent";

describe("resolveHookCommand: a user hook's own script, never the repository's", () => {
  test.each([
    ["./check.sh", `${DIR}/check.sh`],
    ["./check.sh --strict", `${DIR}/check.sh --strict`],
    ["./check.sh;echo done", `${DIR}/check.sh;echo done`],
    ["hooks/lint.sh && echo ok", `${DIR}/hooks/lint.sh && echo ok`],
    ["../shared/guard.sh", "/home/me/.config/shared/guard.sh"],
    ["python3 check.py", `python3 ${DIR}/check.py`],
    ["bash hooks/x.sh arg", `bash ${DIR}/hooks/x.sh arg`],
    ["/usr/bin/node ./guard.js", `/usr/bin/node ${DIR}/guard.js`],
  ])("%s runs %s", (command, expected) => {
    expect(resolveHookCommand(command, DIR)).toBe(expected);
  });

  test.each([
    "jq -e .tool_name",
    "/opt/hooks/check.sh",
    "~/bin/check.sh",
    "$HOME/check.sh",
    "python3 -c 'print(1)'",
    "bash -c 'exit 2'",
    "echo blocked >&2; exit 2",
  ])("%s is left as written", (command) => {
    expect(resolveHookCommand(command, DIR)).toBe(command);
  });

  test("a folder with a space is quoted", () => {
    expect(resolveHookCommand("./check.sh", "/home/me/my config")).toBe("'/home/me/my config/check.sh'");
  });

  test("without a folder (a trusted project's hook) the command is unchanged", () => {
    expect(resolveHookCommand("./check.sh", undefined)).toBe("./check.sh");
  });
});
