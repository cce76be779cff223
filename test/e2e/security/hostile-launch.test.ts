/**
 * A cloned repository's bunfig.toml is never read: its `preload` would run the repository's code before
 * ours. bin/agent starts Bun with `--config=/dev/null` (and `--no-env-file`: a workspace `.env` that would
 * turn traces on is test/e2e/telemetry/telemetry.test.ts's case).
 */
import { beforeEach, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
let marker: string;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});
beforeEach(() => {
  marker = join(sandbox.dir, "preload-ran");
  writeFileSync(
    join(sandbox.workspace, "evil.ts"),
    `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "the repository's code ran");\n`,
  );
  writeFileSync(join(sandbox.workspace, "bunfig.toml"), 'preload = ["./evil.ts"]\n');
});

test("agent --version and agent run in a workspace with a bunfig.toml preload: the preload never runs", async () => {
  const version = await runAgentIn(sandbox, ["--version"], sandbox.env());
  expect(version.code).toBe(0);
  server.enqueue({ text: "done" });
  const run = await runAgentIn(sandbox, ["run", "say done"], anthropicEnv(sandbox, server));
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("done\n");
  expect(existsSync(marker)).toBe(false);
});
