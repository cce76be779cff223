/**
 * docs/helper.md's "Try it without a key" command, taken from the page and run as printed (sh, from the
 * repository root, `agent` on the PATH) with no key and no server: it replays the shipped
 * examples/helper/summary.cassette.jsonl and prints the recorded answer. A second run with other text
 * shows the replay really compares what was piped in.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readCassette } from "../../../../src/llm/cassette/cassette.ts";
import { AGENT_BIN, makeSandbox, type Sandbox } from "../../../cli/run-agent.ts";
import { processOutput } from "../../../support/process-output.ts";

const ROOT = resolve(import.meta.dir, "../../../..");
const DOC = join(ROOT, "docs", "helper.md");
const CASSETTE = join(ROOT, "examples", "helper", "summary.cassette.jsonl");

/** The one line of an sh block of docs/helper.md that replays the shipped cassette. */
function documentedCommand(): string {
  const blocks = [...readFileSync(DOC, "utf8").matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const lines = blocks.flatMap((block) => block.split("\n"));
  const command = lines.find((line) => line.includes("--replay examples/helper/summary.cassette.jsonl"));
  if (command === undefined)
    throw new Error(`${DOC}: no sh line replays examples/helper/summary.cassette.jsonl`);
  return command;
}

/** The answer the cassette recorded: the text of its one exchange (read by the program's own reader). */
function recordedAnswer(): string {
  const exchanges = readCassette(CASSETTE, ROOT);
  expect(exchanges).toHaveLength(1);
  return (exchanges[0]?.events ?? [])
    .flatMap((event) => (event.type === "text_end" ? [event.text] : []))
    .join("");
}

async function runInShell(command: string, sandbox: Sandbox) {
  const env = sandbox.env();
  env.PATH = `${dirname(AGENT_BIN)}:${env.PATH}`;
  const proc = Bun.spawn(["sh", "-c", command], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" });
  return processOutput(proc);
}

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.cleanup());

test("the documented command prints the recorded summary with no key, exit 0", async () => {
  sandbox = makeSandbox();
  const answer = recordedAnswer();
  expect(answer).toStartWith("Release 1.4");
  const result = await runInShell(documentedCommand(), sandbox);
  expect(result).toEqual({ stdout: `${answer}\n`, stderr: "", code: 0 });
});

test("other piped text does not match the recording: exit 2, naming the difference", async () => {
  sandbox = makeSandbox();
  const changed = documentedCommand().replace("Release 1.4", "Release 2.0");
  const result = await runInShell(changed, sandbox);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr).toContain("request 1 does not match the recording");
});
