/**
 * Re-records the example cassettes: `bun examples/eval/record.ts` (from the repository root).
 *
 * No key is needed: the project's fake LLM server (test/support/fake-llm-server.ts) plays the model,
 * serving the SCRIPTED turns of scripted-turns.ts over the real Anthropic wire protocol, and
 * `agent eval --record` writes what the agent exchanged with it to cassettes/. Tasks run one at a time
 * (-j 1), so each task gets its own turns in order. To record a real model instead, see README.md here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeLlmServer } from "../../test/support/fake-llm-server.ts";
import { SCRIPTED_TURNS } from "./scripted-turns.ts";

const here = import.meta.dir;
const suite = join(here, "suite.yaml");
const cassettes = join(here, "cassettes");
const agent = resolve(here, "../../bin/agent.ts");

const server = await startFakeLlmServer();
// The suite's task order: scripted-turns.ts lists the tasks as suite.yaml does.
for (const turns of Object.values(SCRIPTED_TURNS)) server.enqueue(...turns);
const home = mkdtempSync(join(tmpdir(), "agent-eval-record-"));
rmSync(cassettes, { recursive: true, force: true });
const proc = Bun.spawn(
  [process.execPath, agent, "eval", suite, "--trust-suite", "--record", cassettes, "-j", "1"],
  {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: join(home, "config"),
      XDG_STATE_HOME: join(home, "state"),
      XDG_CACHE_HOME: join(home, "cache"),
      ANTHROPIC_API_KEY: "sk-ant-scripted-not-a-key",
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    },
    stdout: "inherit",
    stderr: "inherit",
  },
);
const code = await proc.exited;
const left = server.pending();
await server.close();
rmSync(home, { recursive: true, force: true });
if (left !== 0) {
  process.stderr.write(
    `record.ts: ${left} scripted turns were not asked for; the cassettes are not what was scripted\n`,
  );
  process.exit(1);
}
// 1 is expected: the rename task fails by design.
process.stderr.write(`record.ts: agent eval exited ${code}; cassettes in ${cassettes}\n`);
