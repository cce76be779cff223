/**
 * A logged-in OAuth MCP server under `agent eval`: each task's run has its own state folder (its own
 * transcript), yet finds the user's stored login, so the server starts with the user's token instead of
 * failing with "needs authorization" while the task is reported as passed. The server is the OAuth
 * fixture (the MCP SDK's own authorization-server parts); the login is `agent mcp login --headless`.
 */
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EvalReport } from "../../../src/cli/eval/report/eval-report.ts";
import { startOAuthFixture } from "../../support/mcp-fixture.ts";
import { anthropicEnv, freshServerAndSandbox, parseJsonLines, runAgentIn } from "../support.ts";

// A login and an eval start several processes; a bound for "it ended at all", never a timing check.
setDefaultTimeout(90_000);

const fixture = freshServerAndSandbox();
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

test("a task's run uses the user's MCP login", async () => {
  const { server, sandbox } = fixture;
  const log = join(sandbox.dir, "secure.log");
  const secure = await startOAuthFixture({ FIXTURE_LOG: log });
  stops.push(secure.stop);
  const configDir = join(sandbox.configDir, "agent");
  mkdirSync(join(configDir, "agents"), { recursive: true });
  writeFileSync(
    join(configDir, "config.yaml"),
    `mcp_servers:\n  secure:\n    url: ${secure.url}\n    startup_timeout_ms: 30000\n`,
  );

  const login = await runAgentIn(sandbox, ["mcp", "login", "secure", "--headless"], sandbox.env());
  expect(login.code).toBe(0);
  const loginRequests = parseJsonLines(readFileSync(log, "utf8")).length;

  // A task sees none of the user's setup but the servers its suite names: the agent comes with the
  // task's workspace, the server from the user's config, the login from the user's store.
  mkdirSync(join(sandbox.dir, "fixture", ".agent", "agents"), { recursive: true });
  writeFileSync(join(sandbox.dir, "fixture", "a.txt"), "a\n");
  writeFileSync(
    join(sandbox.dir, "fixture", ".agent", "agents", "mcp-user.yaml"),
    'name: mcp-user\ndescription: uses MCP tools\nsystem_prompt: Use the tools.\ncapabilities: ["mcp:secure"]\n',
  );
  const suite = join(sandbox.dir, "suite.yaml");
  writeFileSync(
    suite,
    [
      "defaults: {model: anthropic:claude-haiku-5-5, mcp_servers: [secure]}",
      "tasks:",
      "  - {id: uses-mcp, goal: Say done., workspace: fixture, agent: mcp-user}",
      "",
    ].join("\n"),
  );
  server.enqueue({ text: "done" });
  const result = await runAgentIn(
    sandbox,
    ["eval", suite, "-o", "json", "--out", join(sandbox.dir, "out")],
    anthropicEnv(sandbox, server),
  );
  expect(result.code).toBe(0);
  const report = JSON.parse(result.stdout) as EvalReport;
  expect(report.tasks[0]?.passed).toBe(true);
  const transcript = report.tasks[0]?.transcript;
  expect(transcript !== undefined && existsSync(transcript)).toBe(true);
  expect(readFileSync(transcript as string, "utf8")).not.toContain("needs authorization");
  // The task's run reached the server with the stored token.
  const afterLogin = parseJsonLines(readFileSync(log, "utf8")).slice(loginRequests) as {
    path: string;
    authorization: string | null;
  }[];
  expect(afterLogin.some((request) => request.authorization?.startsWith("Bearer "))).toBe(true);
});

test("a suite naming an MCP server the user's config lacks stops before any task, naming it (exit 3)", async () => {
  const { sandbox } = fixture;
  mkdirSync(join(sandbox.dir, "fixture2"));
  const suite = join(sandbox.dir, "suite2.yaml");
  writeFileSync(
    suite,
    [
      "defaults: {model: anthropic:claude-haiku-5-5, mcp_servers: [nosuch]}",
      "tasks:",
      "  - {id: t, goal: Say done., workspace: fixture2}",
      "",
    ].join("\n"),
  );
  const result = await runAgentIn(
    sandbox,
    ["eval", suite, "--out", join(sandbox.dir, "out2")],
    sandbox.env(),
  );
  expect(result.code).toBe(3);
  expect(result.stderr).toContain('mcp_servers: "nosuch" not in your config');
  expect(existsSync(join(sandbox.dir, "out2", "t"))).toBe(false);
});
