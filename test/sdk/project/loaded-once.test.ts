/**
 * One composition root: a command reads the user config and the project's `.agent/config.yaml` once.
 * `agent run` (and `agent chat`, the same setup) reads the project config to check its specs' MCP servers
 * and hands it to createSession, which then reads nothing again; createSession given a project config
 * leaves the workspace's file alone.
 */
import { afterEach, beforeEach, expect, spyOn, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setUpSession } from "../../../src/cli/shared/session/session-setup.ts";
import * as userConfig from "../../../src/sdk/config/config.ts";
import * as projectRules from "../../../src/sdk/project/project-rules.ts";
import { createSession } from "../../../src/sdk/session.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { makeLibraryDirs } from "../../support/library-dirs.ts";

let server: FakeLlmServer;
let dir: string;
let env: Record<string, string>;
const saved = { ...process.env };

beforeEach(async () => {
  server = await startFakeLlmServer();
  ({ dir, env } = makeLibraryDirs("agent-once-", server, "sk-ant-test-once-000001"));
  mkdirSync(join(dir, "ws", ".agent"));
});
afterEach(async () => {
  for (const key of Object.keys(env)) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test("agent run's setup reads the user config and the project config once each", async () => {
  writeFileSync(join(dir, "config", "agent", "config.yaml"), "rules:\n  deny: ['exec:rm *']\n");
  writeFileSync(join(dir, "ws", ".agent", "config.yaml"), "rules:\n  deny: ['exec:curl *']\n");
  Object.assign(process.env, env);
  const configReads = spyOn(userConfig, "loadConfig");
  const projectReads = spyOn(projectRules, "loadProjectRules");
  try {
    const setup = await setUpSession({ cwd: join(dir, "ws"), sandbox: "off", fallback: true });
    await setup.session.close();
    expect(configReads).toHaveBeenCalledTimes(1);
    expect(projectReads).toHaveBeenCalledTimes(1);
  } finally {
    configReads.mockRestore();
    projectReads.mockRestore();
  }
});

test("createSession given the project config does not read the workspace's file again", async () => {
  // A project config no session may load (models are the user's): reading it would be a config error.
  writeFileSync(join(dir, "ws", ".agent", "config.yaml"), "models:\n  fast: anthropic:claude-haiku-4-5\n");
  await expect(createSession({ cwd: join(dir, "ws"), env, sandbox: { mode: "off" } })).rejects.toThrow(
    /a project config may only hold rules/,
  );
  const session = await createSession({
    cwd: join(dir, "ws"),
    env,
    sandbox: { mode: "off" },
    project: { ask: [], deny: ["exec"], mcpServers: {} },
  });
  await session.close();
});
