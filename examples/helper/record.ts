/**
 * Re-records summary.cassette.jsonl: `bun examples/helper/record.ts` (from the repository root).
 *
 * No key is needed: the project's fake LLM server (test/support/fake-llm-server.ts) plays the model,
 * serving the scripted answer below over the real Anthropic wire protocol, while the real
 * `agent helper --record` (bin/agent.ts) reads the example text on stdin exactly as the documented
 * `echo "…" |` of README.md here gives it (echo adds the newline). The home, config and state folders are a fresh temp folder, so nothing of yours
 * shapes the recording.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeLlmServer } from "../../test/support/fake-llm-server.ts";

/** What the documented command echoes into the helper. */
const SUMMARY_INPUT =
  "Release 1.4 moves the config file to the XDG config folder, drops support for Node 18, and makes the fast tier the default for agent helper.";
const SUMMARY_PROMPT = "Summarise this";
/** The scripted model's answer: written by hand, not a real model's. */
const SUMMARY_ANSWER =
  "Release 1.4 moves the config to the XDG config folder, ends Node 18 support and makes agent helper use the fast tier by default.";

const here = import.meta.dir;
const cassette = join(here, "summary.cassette.jsonl");
const agent = resolve(here, "../../bin/agent.ts");

const server = await startFakeLlmServer();
server.enqueue({ text: SUMMARY_ANSWER, usage: { input: 62, output: 31 } });
const home = mkdtempSync(join(tmpdir(), "agent-helper-record-"));
rmSync(cassette, { force: true });
const proc = Bun.spawn(
  [process.execPath, agent, "helper", "--tier", "fast", "--record", cassette, SUMMARY_PROMPT],
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
    stdin: new Blob([`${SUMMARY_INPUT}\n`]),
    stdout: "inherit",
    stderr: "inherit",
  },
);
const code = await proc.exited;
const left = server.pending();
await server.close();
rmSync(home, { recursive: true, force: true });
if (code !== 0 || left !== 0) {
  process.stderr.write(`record.ts: agent helper exited ${code} with ${left} scripted turns unused\n`);
  process.exit(1);
}
process.stderr.write(`record.ts: recorded ${cassette}\n`);
