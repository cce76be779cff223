/**
 * The CI snippet of docs/ci-and-json.md that reads `.status` before `.answer`, run as printed (sh + jq)
 * on real results of `agent run -o json` (run in the test process, ../run/in-process.ts): a success prints the answer; an error result (no key: it has
 * no `answer`, so `jq -r .answer` alone prints `null`) goes to stderr with exit 1.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox } from "../../e2e/support.ts";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { processOutput } from "../../support/process-output.ts";
import { runInSandbox } from "../run/in-process.ts";

const DOC = join(import.meta.dir, "..", "..", "..", "docs", "ci-and-json.md");

/** The sh block of the page that checks `.status`. */
function statusSnippet(): string {
  const blocks = [...readFileSync(DOC, "utf8").matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const snippet = blocks.find((block) => block.includes('.status == "success"'));
  if (snippet === undefined) throw new Error(`${DOC}: no sh block checks .status`);
  return snippet;
}

/** Runs the snippet in `dir`, where result.json holds `result`. */
async function runSnippet(dir: string, result: string) {
  writeFileSync(join(dir, "result.json"), result);
  const proc = Bun.spawn(["sh", "-c", statusSnippet()], { cwd: dir, stdout: "pipe", stderr: "pipe" });
  return processOutput(proc);
}

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

test("a successful run: the snippet prints the answer, exit 0", async () => {
  server.enqueue({ text: "Added farewell." });
  const run = await runInSandbox(
    sandbox,
    ["run", "add farewell", "-o", "json"],
    anthropicEnv(sandbox, server),
  );
  expect(run.code).toBe(0);
  const checked = await runSnippet(sandbox.workspace, run.stdout);
  expect(checked).toEqual({ stdout: "Added farewell.\n", stderr: "", code: 0 });
});

test("an error result (no key): no `null` answer, the status and message on stderr, exit 1", async () => {
  const run = await runInSandbox(sandbox, ["run", "add farewell", "-o", "json"], sandbox.env());
  expect(run.code).toBe(3);
  expect(JSON.parse(run.stdout).answer).toBeUndefined(); // why `jq -r .answer` alone prints null
  const checked = await runSnippet(sandbox.workspace, run.stdout);
  expect(checked.code).toBe(1);
  expect(checked.stdout).toBe("");
  expect(checked.stderr).toBe("agent: error: no model provider is set up: no API key found\n");
});
