/**
 * The first run (issue 21, item 8): with no key, `agent run` shows a short screen on stderr (the three
 * providers' variables, a local Ollama, the demo, `agent models`) and exits 3, with no resume hint and
 * no session; `--output json` and `stream-json` keep the one error object on stdout and one line on stderr
 * that names the variables to set (a script's log, docs/ci-and-json.md). Ollama is mentioned as detected only
 * when it answers. `agent run` in the test process (in-process.ts), without a terminal; the "Ollama" is a
 * tiny 127.0.0.1 server. The screen of `agent` on a terminal is checked in test/e2e/run/first-run.test.ts.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { closedPort } from "../../support/closed-port.ts";
import { makeSandbox, type Sandbox } from "../run-agent.ts";
import { runInProcess } from "./in-process.ts";

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe("no key at all", () => {
  test("agent run: the first-run screen on stderr, exit 3, nothing on stdout, no session", async () => {
    const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${await closedPort()}` });
    const result = await runInProcess(["run", "hello"], { env, cwd: sandbox.dir });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    const err = result.stderr;
    expect(err).toContain("agent: no model provider is set up: no API key found");
    for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY or GOOGLE_API_KEY"])
      expect(err).toContain(name);
    expect(err).toContain("agent run -m ollama:MODEL");
    expect(err).toContain("start Ollama");
    expect(err).not.toContain("Ollama answers");
    expect(err).toContain("npm run demo");
    expect(err).toContain("agent models");
    expect(err).not.toContain("continue:");
    expect(existsSync(join(sandbox.stateDir, "agent", "sessions"))).toBe(false);
  });

  test("--output json: the one error object on stdout, one line on stderr naming the variables", async () => {
    const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${await closedPort()}` });
    const result = await runInProcess(["run", "hello", "--output", "json"], { env, cwd: sandbox.dir });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({
      type: "result",
      schema_version: 2,
      status: "error",
      error: { kind: "config", message: "no model provider is set up: no API key found" },
      exit_code: 3,
    });
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    expect(result.stderr).toBe(
      "agent: no model provider is set up: no API key found; set ANTHROPIC_API_KEY, OPENAI_API_KEY, " +
        "GEMINI_API_KEY or GOOGLE_API_KEY (agent models shows what is set up)\n",
    );
  });

  test("--output stream-json: the error object last on stdout, the same one line on stderr", async () => {
    const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${await closedPort()}` });
    const result = await runInProcess(["run", "-o", "stream-json", "hello"], { env, cwd: sandbox.dir });
    expect(result.code).toBe(3);
    const last = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "");
    expect(last.error).toEqual({ kind: "config", message: "no model provider is set up: no API key found" });
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("GEMINI_API_KEY or GOOGLE_API_KEY");
    expect(result.stderr).not.toContain("npm run demo");
  });

  test("a local Ollama that answers is named as detected, with its address", async () => {
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => Response.json({ object: "list", data: [] }),
    });
    try {
      const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${server.port}` });
      const result = await runInProcess(["run", "hello"], { env, cwd: sandbox.dir });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`Ollama answers at http://127.0.0.1:${server.port}/v1`);
      expect(result.stderr).toContain("agent run -m ollama:MODEL");
    } finally {
      await server.stop(true);
    }
  });
});
