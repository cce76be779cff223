/**
 * Re-records plan.cassette.jsonl, the `agent run --plan` replay of docs/plan-mode.md:
 * `bun examples/demo/record-plan.ts` (from the repository root).
 *
 * No key is needed: the project's fake LLM server (test/support/fake-llm-server.ts) plays the model,
 * serving the scripted turns below over the real Anthropic wire protocol, while the real
 * `agent run --plan --record` runs on a copy of workspace/ (plan mode changes nothing, but the copy keeps
 * even that promise out of the recording's way). Home, config and state are a fresh temp folder, so the
 * run sees the project's own agents only, as a replay on a clean machine does. The turns are written
 * by hand, not a real model's.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startFakeLlmServer } from "../../test/support/fake-llm-server.ts";

const GOAL = "Add a farewell(name) function to greet.js";
const PLAN = {
  summary: "Add farewell(name) to greet.js next to greet, in the same style.",
  steps: [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the plan quotes greet.js's template literal
    "Add `export function farewell(name)` returning `Goodbye, ${name}!` below greet in greet.js",
    "Check it with node: import greet.js and print farewell('Ada')",
  ],
  files: ["greet.js"],
  commands: [`node -e "import('./greet.js').then((m) => console.log(m.farewell('Ada')))"`],
};

const here = import.meta.dir;
const cassette = join(here, "plan.cassette.jsonl");
const agent = resolve(here, "../../bin/agent.ts");

const server = await startFakeLlmServer();
server.enqueue(
  {
    toolCalls: [
      {
        name: "code-reader",
        args: { goal: "Read greet.js and report what it exports and its code style (module format, indentation, quotes)." },
      },
    ],
    usage: { input: 1480, output: 60 },
  },
  { toolCalls: [{ name: "read_file", args: { path: "greet.js" } }], usage: { input: 900, output: 20 } },
  {
    text: "greet.js is an ES module exporting greet(name), which returns a template literal; two-space indentation, semicolons.",
    usage: { input: 1000, output: 40 },
  },
  { text: JSON.stringify(PLAN), usage: { input: 1700, output: 120 } },
);
const home = mkdtempSync(join(tmpdir(), "agent-plan-record-"));
const work = join(home, "workspace");
cpSync(join(here, "workspace"), work, { recursive: true });
rmSync(cassette, { force: true });
const proc = Bun.spawn(
  [process.execPath, agent, "run", "--plan", "--no-session-persistence", "--cwd", work, "--record", cassette, GOAL],
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
    stdin: "ignore",
    stdout: "inherit",
    stderr: "inherit",
  },
);
const code = await proc.exited;
const left = server.pending();
await server.close();
rmSync(home, { recursive: true, force: true });
if (code !== 0 || left !== 0) {
  process.stderr.write(`record-plan.ts: agent run exited ${code} with ${left} scripted turns unused\n`);
  process.exit(1);
}
process.stderr.write(`record-plan.ts: recorded ${cassette}\n`);
