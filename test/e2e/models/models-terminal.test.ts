/**
 * `agent models --all` after a refresh from a hostile catalog server: a model id holding OSC 52, OSC 0,
 * CSI 2J and a forged `agent: warning:` line reaches stdout without any of them (bin/agent, because the
 * catalog is the process's own, read once from $XDG_CACHE_HOME).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const HOSTILE_ID =
  "gpt-7-evil\u001b]52;c;dG91Y2ggUFdORUQ=\u0007\u001b]0;owned\u0007\u001b[2J\nagent: warning: forged\r";

test("a refreshed catalog's model id reaches the terminal without control sequences or forged lines", async () => {
  const api = JSON.parse(readFileSync(join(import.meta.dir, "../../fixtures/models-dev/api.json"), "utf8"));
  const nova = api.openai.models["gpt-7-nova"];
  api.openai.models[HOSTILE_ID] = { ...nova, id: HOSTILE_ID, name: HOSTILE_ID };
  server.serveCatalog(JSON.stringify(api));
  const env = sandbox.env({
    OPENAI_API_KEY: "sk-test-models-terminal-0001",
    XDG_CACHE_HOME: join(sandbox.dir, "cache"),
    AGENT_MODELS_URL: `${server.url}/api.json`,
  });
  const refreshed = await runAgentIn(sandbox, ["models", "--refresh"], env);
  expect(refreshed.code).toBe(0);
  for (const args of [
    ["models", "--all"],
    ["models", "--all", "--json"],
  ]) {
    const result = await runAgentIn(sandbox, args, env);
    expect(result.code).toBe(0);
    const bytes = result.stdout + result.stderr;
    expect(bytes).not.toContain("\u001b");
    expect(bytes).not.toContain("\u0007");
    expect(bytes).not.toContain("\r");
    expect(bytes.split("\n").filter((line) => line.startsWith("agent: warning:"))).toEqual([]);
  }
  const listed = await runAgentIn(sandbox, ["models", "--all"], env);
  expect(listed.stdout).toContain("gpt-7-evil␤agent: warning: forged");
});
