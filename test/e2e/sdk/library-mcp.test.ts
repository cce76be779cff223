/**
 * The library API with an MCP server (the SDK-built fixture server, a separate process): it stays up across
 * a session's runs and close() stops it. The rest of the library API is tested in process:
 * test/sdk/library.test.ts.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSession, defineSpec, type Session } from "agent";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { closeLibraryFixture, openLibraryFixture } from "../../support/library-dirs.ts";
import { FIXTURE_SERVER, fixturePids, pidAlive, survivors } from "../../support/mcp-fixture.ts";

let server: FakeLlmServer;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  ({ server, dir, env } = await openLibraryFixture("agent-sdk-", "sk-ant-test-sdk-000001"));
});
afterEach(() => closeLibraryFixture({ server, dir }));

const writer = defineSpec({
  name: "writer",
  description: "Writes files",
  system_prompt: "Write what you are asked to.",
  model: "fast",
  capabilities: ["write_file"],
});

test("MCP servers stay up across a session's runs, and close() stops them", async () => {
  const pidFile = join(dir, "mcp-pids");
  const serverEnv = JSON.stringify({ FIXTURE_PID_FILE: pidFile });
  writeFileSync(
    join(dir, "config", "agent", "config.yaml"),
    `mcp_servers:\n  fixture:\n    command: ${JSON.stringify(process.execPath)}\n` +
      `    args: [${JSON.stringify(FIXTURE_SERVER)}]\n    env: ${serverEnv}\n    startup_timeout_ms: 30000\n`,
  );
  const echo = defineSpec({ ...writer, name: "echoer", capabilities: ["mcp:fixture/echo"] });
  const session: Session = await createSession({
    cwd: join(dir, "ws"),
    env,
    specs: [echo],
    rules: { allow: ["mcp:fixture/echo"] },
  });
  for (const word of ["one", "two"]) {
    server.enqueue({ toolCalls: [{ name: "mcp__fixture__echo", args: { text: word } }] }, { text: word });
    expect((await session.run("echo", { agent: "echoer" })).answer).toBe(word);
  }
  expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("echo: two");
  const pids = fixturePids(pidFile);
  expect(pids).toHaveLength(1);
  expect(pids.every(pidAlive)).toBe(true);
  await session.close();
  expect(await survivors(pids)).toEqual([]);
});
