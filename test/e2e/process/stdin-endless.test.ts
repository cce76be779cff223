/**
 * An endless stdin (`yes | agent helper …`, `cat /dev/zero | agent run …`) is read only up to the cap and
 * refused without reading the rest: the process ends on its own with exit 2 and says why. Before, stdin
 * was read to EOF before the size check, so an endless pipe grew memory until the OOM killer.
 */
import { describe, expect, test } from "bun:test";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { AGENT_BIN, anthropicEnv, type E2eSandbox, freshServerAndSandbox } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

/** Generous: a run still going by then is reading without end. */
const ENDLESS_AFTER_MS = 40_000;

/** Runs `yes | bin/agent ARGS` through sh; the pipeline's status is agent's (sh reports the last command). */
async function piped(producer: string, args: string[]): Promise<{ code: number; stderr: string }> {
  const quoted = [AGENT_BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(" ");
  const proc = Bun.spawn(["sh", "-c", `${producer} | ${quoted}`], {
    env: anthropicEnv(sandbox, server),
    cwd: sandbox.workspace,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const done = Promise.all([new Response(proc.stderr).text(), proc.exited]);
  const timer = Bun.sleep(ENDLESS_AFTER_MS).then(() => null);
  const result = await Promise.race([done, timer]);
  if (result === null) {
    proc.kill("SIGKILL");
    Bun.spawnSync(["pkill", "-P", String(proc.pid)]);
    throw new Error(`the pipeline did not end within ${ENDLESS_AFTER_MS} ms`);
  }
  const [stderr, code] = result;
  return { code, stderr };
}

describe("an endless stdin", () => {
  test(
    "yes | agent helper: exit 2, refused past the cap, no model call",
    async () => {
      const result = await piped("yes", ["helper", "summarise"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("stdin is larger than 8 MiB");
      expect(result.stderr).toContain("refused without reading the rest");
      expect(server.requests).toHaveLength(0);
    },
    ENDLESS_AFTER_MS + 20_000,
  );

  test(
    "cat /dev/zero | agent run -: exit 2 with the same message",
    async () => {
      const result = await piped("cat /dev/zero", ["run", "-"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("stdin is larger than 8 MiB");
      expect(server.requests).toHaveLength(0);
    },
    ENDLESS_AFTER_MS + 20_000,
  );
});
