/**
 * Keys out of reach without a sandbox: `agent run --sandbox off` (as where bubblewrap is missing), the
 * scripted model running a command that reads the environment of every process up the tree from
 * /proc/PID/environ and sends it base64-encoded (so the redactor, which sees exact values, cannot catch
 * it). No provider key may be in what the model gets back, encoded or not. A process of its own because
 * the process's initial environment is the point (Linux /proc).
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  freshServerAndSandbox,
  runAgentIn,
  toolResultsOf,
} from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

/** Every ancestor's environment lines naming a key, token, secret or LLM, base64-encoded, one process a line. */
const SEARCH_UP_THE_TREE = [
  "p=$PPID",
  'while [ "$p" -gt 1 ]; do',
  '  printf "%s " "$p"',
  "  tr '\\0' '\\n' < /proc/$p/environ | grep -a -i -E 'key|token|secret|llm' | base64 -w0",
  "  echo",
  "  p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)",
  "done",
].join("\n");

const OPENAI_KEY = "sk-test-hidden-openai-key-00000001";
const CONFIGURED_KEY = "local-llm-key-000000000001";

test.skipIf(process.platform !== "linux")(
  "a command run without a sandbox finds no provider key in any ancestor's /proc/PID/environ",
  async () => {
    const env = anthropicEnv(sandbox, server, { OPENAI_API_KEY: OPENAI_KEY, LOCAL_LLM: CONFIGURED_KEY });
    const anthropicKey = env.ANTHROPIC_API_KEY ?? "";
    // A provider whose key variable config names (a name no pattern would take for a secret).
    mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
    writeFileSync(
      join(sandbox.configDir, "agent", "config.yaml"),
      "providers:\n  local:\n    kind: openai-compatible\n    base_url: http://127.0.0.1:9/v1\n    api_key_env: LOCAL_LLM\n",
    );
    expect(anthropicKey.length).toBeGreaterThan(8);
    server.enqueue(
      { toolCalls: [{ name: "exec", args: { command: SEARCH_UP_THE_TREE } }] },
      { text: "Done." },
    );
    const result = await runAgentIn(
      sandbox,
      ["run", "--agent", "command-runner", "--sandbox", "off", "--on-ask", "allow", "look around"],
      env,
    );
    expect(result.code).toBe(0);
    // Each tool result as the request carries it (a JSON string).
    const output = toolResultsOf(server.requests[1])
      .map((text) => (text.startsWith('"') ? (JSON.parse(text) as string) : text))
      .join("\n");
    const lines = output.split("\n").filter((line) => /^\d+ /.test(line));
    // The agent's own process and at least the test runner above it were searched.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const decoded = lines
      .map((line) => Buffer.from(line.split(" ")[1] ?? "", "base64").toString("latin1"))
      .join("\n");
    // The search did find the variables (their names stay, their values are blanked).
    expect(decoded).toContain("ANTHROPIC_API_KEY=");
    expect(decoded).toContain("LOCAL_LLM=");
    for (const key of [anthropicKey, OPENAI_KEY, CONFIGURED_KEY]) {
      expect(decoded).not.toContain(key);
      expect(output).not.toContain(key);
    }
  },
);
