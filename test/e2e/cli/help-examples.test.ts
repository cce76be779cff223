/**
 * `--help` of run, helper and chat (issue 21, item 9): it ends with three examples and the exit codes,
 * and shows no `(default: [])` for --allow/--deny. Every example parses as the command it shows: each is
 * run through bash with `--help` appended (so nothing is called), and must exit 0.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { AGENT_BIN, makeSandbox, runAgent } from "../../cli/run-agent.ts";

const sandbox = makeSandbox();
afterAll(() => sandbox.cleanup());

const ALL_EXIT_CODES = ["0", "1", "2", "3", "4", "5", "6", "70", "129", "130", "141"];
// helper and chat have no --on-ask: they never exit 6 (approval needed), so their help does not list it.
const EXIT_CODES: Record<string, string[]> = {
  run: ALL_EXIT_CODES,
  helper: ALL_EXIT_CODES.filter((code) => code !== "6"),
  chat: ALL_EXIT_CODES.filter((code) => code !== "6"),
};

/** The example command lines of a help text (the lines after `Examples:` that start with `$ `). */
function examplesOf(help: string): string[] {
  const section = help.split("\nExamples:\n")[1]?.split("\n\n")[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.trimStart().startsWith("$ "))
    .map((line) => line.trimStart().slice(2));
}

describe.each(["run", "helper", "chat"])("agent %s --help", (command) => {
  test("ends with three examples and the exit codes; no (default: [])", async () => {
    const result = await runAgent([command, "--help"], { env: sandbox.env() });
    expect(result.code).toBe(0);
    const help = result.stdout;
    expect(help).not.toContain("(default: [])");
    expect(help).not.toMatch(/default:\s*\n\s*\[\]/);
    expect(examplesOf(help)).toHaveLength(3);
    const codes = help.split("\nExit codes (docs/ci-and-json.md):\n")[1] ?? "";
    expect(
      codes
        .trim()
        .split("\n")
        .map((line) => line.trim().split(/\s+/)[0]),
    ).toEqual(EXIT_CODES[command] ?? []);
    // Nothing after the exit codes: the help ends with them.
    expect(help.trimEnd().endsWith("stdout was closed by its reader")).toBe(true);
  });

  test("every example is a command line bash and agent accept as printed", async () => {
    const help = (await runAgent([command, "--help"], { env: sandbox.env() })).stdout;
    const bin = join(sandbox.dir, `bin-${command}`);
    mkdirSync(bin);
    symlinkSync(AGENT_BIN, join(bin, "agent"));
    for (const example of examplesOf(help)) {
      // The last agent of a pipeline gets --help: the example's flags are parsed, nothing runs.
      const proc = Bun.spawn(["bash", "-c", `${example} --help >/dev/null`], {
        env: { ...sandbox.env(), PATH: `${bin}:${process.env.PATH ?? ""}` },
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
      expect({ example, code, stderr }).toEqual({ example, code: 0, stderr: "" });
    }
  });
});
