/**
 * The first run (issue 21, item 8): with no key, `agent run` shows a short screen on stderr (the three
 * providers' variables, a local Ollama, the demo, `agent models`) and exits 3, with no resume hint and
 * no session; `--output json` keeps the one error object on stdout. Ollama is mentioned as detected only
 * when it answers. bin/agent without a TTY; the "Ollama" is a tiny 127.0.0.1 server.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, runAgent, type Sandbox } from "../../cli/run-agent.ts";
import { closedPort } from "../../support/closed-port.ts";
import { startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { startTerminal, TEST_TIMEOUT_MS } from "../tmux.ts";

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe("no key at all", () => {
  test("agent run: the first-run screen on stderr, exit 3, nothing on stdout, no session", async () => {
    const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${await closedPort()}` });
    const result = await runAgent(["run", "hello"], { env, cwd: sandbox.dir });
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

  test("--output json: the one error object on stdout, the screen on stderr", async () => {
    const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${await closedPort()}` });
    const result = await runAgent(["run", "hello", "--output", "json"], { env, cwd: sandbox.dir });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({
      type: "result",
      schema_version: 2,
      status: "error",
      error: { kind: "config", message: "no model provider is set up: no API key found" },
      exit_code: 3,
    });
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
  });

  test("a local Ollama that answers is named as detected, with its address", async () => {
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => Response.json({ object: "list", data: [] }),
    });
    try {
      const env = sandbox.env({ OLLAMA_HOST: `127.0.0.1:${server.port}` });
      const result = await runAgent(["run", "hello"], { env, cwd: sandbox.dir });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(`Ollama answers at http://127.0.0.1:${server.port}/v1`);
      expect(result.stderr).toContain("agent run -m ollama:MODEL");
    } finally {
      await server.stop(true);
    }
  });

  test(
    "agent (a chat, on a terminal): the screen's Ollama line names chat (agent -m ollama:MODEL), not run",
    async () => {
      // The fake server only satisfies the terminal helper: with no key, nothing reaches it.
      const server = await startFakeLlmServer();
      const env = { ANTHROPIC_API_KEY: "", OLLAMA_HOST: `127.0.0.1:${await closedPort()}` };
      const run = startTerminal([], { server, env });
      try {
        const screen = await run.waitForScreen(/EXIT=\d+/, "the first-run screen and the exit status");
        expect(screen).toContain("no model provider is set up");
        expect(screen).toContain("start Ollama, then  agent -m ollama:MODEL");
        expect(screen).not.toContain("agent run -m");
        expect(await run.exitStatus()).toBe(3);
        expect(server.requests).toHaveLength(0);
      } finally {
        run.close();
        await server.close();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
