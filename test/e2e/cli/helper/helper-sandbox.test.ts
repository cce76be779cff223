/**
 * `agent helper --tools exec` runs exec in the same sandbox as `agent run` (src/tools/exec/sandbox.ts): with
 * `--sandbox read-only` a write in the cwd fails; without bwrap on PATH one warning line goes to stderr and
 * the answer still comes; `--tools` without exec never looks for bwrap.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";
import { binWithOnly } from "../../../tools/helpers.ts";

const fx = withFakeServerAndSandbox();
let cwd: string;
let noBwrap: string;

beforeAll(() => {
  cwd = join(fx.sandbox.dir, "work");
  mkdirSync(cwd);
  noBwrap = binWithOnly(join(fx.sandbox.dir, "bin-without-bwrap"), ["bun", "bash"]);
});

function helper(args: string[], extra: Record<string, string> = {}) {
  const env = fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-sandbox-0001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
    ...extra,
  });
  return runAgent(["helper", ...args], { env, cwd });
}

const writeFile = { toolCalls: [{ name: "exec", args: { command: "echo x > written.txt" } }] };
const WARNING = "agent: warning: sandbox unavailable: bwrap (bubblewrap) was not found on PATH";

describe("agent helper --tools exec and the sandbox", () => {
  test("without bwrap: one warning line, the command runs, the answer comes", async () => {
    fx.server.enqueue(writeFile, { text: "wrote it" });
    const result = await helper(["--tools", "exec", "write a file"], { PATH: noBwrap });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("wrote it\n");
    expect(result.stderr.split(WARNING)).toHaveLength(2);
    expect(existsSync(join(cwd, "written.txt"))).toBe(true);
  });

  test("--tools without exec never warns about the sandbox", async () => {
    fx.server.enqueue({ text: "hi" });
    const result = await helper(["--tools", "read_file", "hello"], { PATH: noBwrap });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
  });

  if (Bun.which("bwrap") !== null) {
    test("--sandbox read-only: the command's write in the cwd fails", async () => {
      fx.server.enqueue(
        { toolCalls: [{ name: "exec", args: { command: "echo x > blocked.txt" } }] },
        { text: "could not" },
      );
      const before = fx.server.requests.length;
      const result = await helper(["--tools", "exec", "--sandbox", "read-only", "write a file"]);
      expect(result.code).toBe(0);
      expect(existsSync(join(cwd, "blocked.txt"))).toBe(false);
      expect(JSON.stringify(fx.server.requests[before + 1]?.body)).toContain("Read-only file system");
    });
  }
});
