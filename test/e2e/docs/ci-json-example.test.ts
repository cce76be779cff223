/**
 * docs/ci-and-json.md's error object is what the program prints (issue 21, newcomer item 12): `agent run
 * -o json` with no key anywhere prints exactly the documented line.
 */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, runAgent } from "../../cli/run-agent.ts";

const sandbox = makeSandbox();
afterAll(() => sandbox.cleanup());

const PAGE = readFileSync(join(import.meta.dir, "..", "..", "..", "docs", "ci-and-json.md"), "utf8");

test("the documented no-key error object is the one agent run -o json prints", async () => {
  const documented = PAGE.split("\n").find((line) => line.includes('"kind":"config"'));
  expect(documented).toBeDefined();
  // OLLAMA_HOST at a port nothing listens on: no local Ollama is detected either.
  const result = await runAgent(["run", "add a farewell function", "-o", "json"], {
    env: sandbox.env({ OLLAMA_HOST: "127.0.0.1:9" }),
  });
  expect(result.code).toBe(3);
  expect(result.stdout).toBe(`${documented}\n`);
});
