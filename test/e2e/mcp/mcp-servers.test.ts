/**
 * McpServers with the real SDK on both sides: the fixture server (test/support/mcp-fixture-server.ts)
 * over stdio and streamable HTTP, started lazily, its tools offered under safe names, results
 * redacted and truncated like a primitive's, crashes and failed starts turned into results and warnings,
 * and no process left once the servers are closed.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";

import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "../../../src/kernel/text/redact.ts";
import { McpServers } from "../../../src/tools/mcp/servers.ts";
import type { McpServerConfig } from "../../../src/tools/mcp/types.ts";
import type { ToolContext } from "../../../src/tools/types.ts";
import { Workspace } from "../../../src/tools/workspace.ts";
import {
  FIXTURE_SERVER,
  fixturePids,
  fixtureStdio,
  pidAlive,
  processGone,
  startHttpFixture,
  survivors,
} from "../../support/mcp-fixture.ts";

// Each test spawns servers (and agent runs); on a loaded machine that takes seconds. A generous bound
// for "it ended at all", never a timing assertion.
setDefaultTimeout(60_000);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-mcp-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function servers(configs: ConstructorParameters<typeof McpServers>[0]): McpServers {
  const s = new McpServers(configs);
  cleanups.push(() => s.closeAll());
  return s;
}

async function context(redactor?: Redactor): Promise<ToolContext> {
  return {
    workspace: await Workspace.open(tempDir()),
    signal: new AbortController().signal,
    ...(redactor ? { redactor } : {}),
  };
}

const never = new AbortController().signal;

describe("McpServers over stdio", () => {
  test("starts nothing until asked, then offers the tools under safe names mapped to mcp:SERVER/TOOL", async () => {
    const pidFile = join(tempDir(), "pids");
    const s = servers({ fixture: fixtureStdio({ FIXTURE_PID_FILE: pidFile }) });
    expect((await s.report(never, [])).length).toBe(0);
    expect(await Bun.file(pidFile).exists()).toBe(false);
    const warnings: string[] = [];
    const tools = await s.toolsFor(["read_file", "mcp:fixture"], (m) => warnings.push(m), never);
    expect(warnings).toEqual([]);
    expect([...tools.keys()].sort()).toEqual([
      "mcp__fixture__crash",
      "mcp__fixture__echo",
      "mcp__fixture__lookup",
      "mcp__fixture__read_secret",
      "mcp__fixture__wait",
    ]);
    const echo = tools.get("mcp__fixture__echo");
    expect(echo?.name).toBe("mcp:fixture/echo");
    expect(echo?.readOnly).toBe(false);
    expect(tools.get("mcp__fixture__lookup")?.readOnly).toBe(true);
    expect(echo?.parameters.properties).toHaveProperty("text");
    expect(echo?.parameters).not.toHaveProperty("$schema");
    const ctx = await context();
    expect(await echo?.policyTarget({ text: "x" }, ctx)).toEqual({
      targets: ["fixture/echo"],
      sensitive: false,
      trusted: false,
    });
    expect(echo?.policyName).toBe("mcp");
    const out = await echo?.run({ text: "hello" }, ctx);
    expect(out).toEqual({ modelText: "echo: hello", display: "echo: hello", isError: false });
    // Started once, however many agents ask.
    await s.toolsFor(["mcp:fixture/echo"], (m) => warnings.push(m), never);
    expect(fixturePids(pidFile)).toHaveLength(1);
  });

  test("mcp:SERVER/TOOL offers that tool only; a tool the server lacks is a warning", async () => {
    const s = servers({ fixture: fixtureStdio() });
    const warnings: string[] = [];
    const tools = await s.toolsFor(
      ["mcp:fixture/lookup", "mcp:fixture/nope"],
      (m) => warnings.push(m),
      never,
    );
    expect([...tools.keys()]).toEqual(["mcp__fixture__lookup"]);
    expect(warnings).toEqual([
      "MCP server fixture has no tool nope (it has echo, lookup, read_secret, crash, wait)",
    ]);
  });

  test("an approved project server starts in the workspace: a relative path names the workspace's file", async () => {
    const workspace = tempDir();
    symlinkSync(FIXTURE_SERVER, join(workspace, "srv.ts"));
    const s = new McpServers(
      {
        local: { ...fixtureStdio(), args: ["srv.ts"], fromProject: ".agent/config.yaml" } as McpServerConfig,
      },
      { cwd: workspace, approveStart: async () => undefined },
    );
    cleanups.push(() => s.closeAll());
    const [report] = await s.report(never);
    expect(report).toMatchObject({ name: "local", state: "running" });
  });

  test("a user's server starts outside the workspace: `python3 -m mcp_server_time` never runs the repository's module", async () => {
    const workspace = tempDir();
    const userDir = tempDir();
    const ran = join(workspace, "RAN");
    // What a hostile repository ships: a module named like the documented server.
    writeFileSync(
      join(workspace, "mcp_server_time.py"),
      `open(${JSON.stringify(ran)}, "w").write("the repository's code ran")\n`,
    );
    const s = new McpServers(
      {
        time: {
          transport: "stdio",
          command: "python3",
          args: ["-m", "mcp_server_time"],
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
          trust: false,
          startupTimeoutMs: 15_000,
        },
      },
      { cwd: workspace, userCwd: userDir },
    );
    cleanups.push(() => s.closeAll());
    const [report] = await s.report(never);
    // The real module is not installed here, so the server fails to start; what matters is whose code ran.
    expect(report?.state).toBe("failed");
    expect(existsSync(ran)).toBe(false);
  });

  test("a user's server starts in the `cwd:` its config names, relative to the user's directory", async () => {
    const workspace = tempDir();
    const userDir = tempDir();
    mkdirSync(join(userDir, "servers"));
    symlinkSync(FIXTURE_SERVER, join(userDir, "servers", "srv.ts"));
    // The same relative name in the workspace is not what runs.
    writeFileSync(join(workspace, "srv.ts"), "process.exit(7);\n");
    const s = new McpServers(
      { mine: { ...fixtureStdio(), args: ["srv.ts"], cwd: "servers" } as McpServerConfig },
      { cwd: workspace, userCwd: userDir },
    );
    cleanups.push(() => s.closeAll());
    const [report] = await s.report(never);
    expect(report).toMatchObject({ name: "mine", state: "running" });
  });

  test("a trusted server's tools say so to the policy", async () => {
    const s = servers({ fixture: fixtureStdio({}, { trust: true }) });
    const tools = await s.toolsFor(["mcp:fixture/lookup"], () => {}, never);
    const target = await tools.get("mcp__fixture__lookup")?.policyTarget({ key: "k" }, await context());
    expect(target?.trusted).toBe(true);
  });

  test("output is redacted and truncated like a primitive's", async () => {
    const secret = "sk-proj-fixtureSECRET0123456789abcdef";
    const s = servers({ fixture: fixtureStdio({ FIXTURE_SECRET: secret }) });
    const tools = await s.toolsFor(["mcp:fixture/read_secret", "mcp:fixture/echo"], () => {}, never);
    const ctx = await context(Redactor.fromEnv({ OPENAI_API_KEY: secret }));
    const out = await tools.get("mcp__fixture__read_secret")?.run({}, ctx);
    expect(out?.modelText).toStartWith("the secret is ");
    expect(out?.modelText).not.toContain(secret);
    expect(out?.display).not.toContain(secret);
    const long = await tools.get("mcp__fixture__echo")?.run({ text: "y".repeat(200_000) }, ctx);
    expect(long?.modelText.length).toBeLessThan(100_000);
    expect(long?.modelText).toContain("truncated");
  });

  test("a server that crashes mid-call gives an error result, and later calls fail at once", async () => {
    const s = servers({ fixture: fixtureStdio() });
    const tools = await s.toolsFor(["mcp:fixture"], () => {}, never);
    const ctx = await context();
    const crashed = await tools.get("mcp__fixture__crash")?.run({}, ctx);
    expect(crashed?.isError).toBe(true);
    expect(crashed?.modelText).toStartWith("Error: mcp:fixture/crash failed");
    const after = await tools.get("mcp__fixture__echo")?.run({ text: "x" }, ctx);
    expect(after?.isError).toBe(true);
    expect(after?.modelText).toContain("server fixture exited");
    expect((await s.report(never))[0]?.state).toBe("closed");
  });

  test("a server that fails to start is one warning naming its stderr; its tools are simply absent", async () => {
    const s = servers({ broken: fixtureStdio({}, { args: ["--fail"] }) });
    const warnings: string[] = [];
    const tools = await s.toolsFor(["mcp:broken"], (m) => warnings.push(m), never);
    expect(tools.size).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toStartWith("MCP server broken: failed to start: ");
    expect(warnings[0]).toContain("fixture: refusing to start (--fail)");
    expect(warnings[0]).toEndWith("the run goes on without its tools");
    await s.toolsFor(["mcp:broken"], (m) => warnings.push(m), never);
    expect(warnings).toHaveLength(1);
  });

  test("a command that does not exist is a failed start, not a throw", async () => {
    const s = servers({ gone: { ...fixtureStdio(), command: "/nonexistent/mcp-server" } as never });
    const [report] = await s.report(never);
    expect(report?.state).toBe("failed");
    expect(report?.error).toContain("failed to start");
  });

  test("a server that never answers times out after startup_timeout_ms, and its process is ended", async () => {
    // Found by a unique argument: on a loaded machine the timeout may fire before the server is far
    // enough along to write a pid file.
    const tag = `--tag=${crypto.randomUUID()}`;
    const s = servers({ slow: fixtureStdio({}, { args: ["--hang", tag], startupTimeoutMs: 300 }) });
    const [report] = await s.report(never);
    expect(report?.state).toBe("failed");
    expect(report?.error).toBe("failed to start: it did not answer within 300 ms (startup_timeout_ms)");
    expect(await processGone(tag)).toBe(true);
  });

  test("closeAll ends the server and the processes it started", async () => {
    const pidFile = join(tempDir(), "pids");
    const s = new McpServers({ fixture: fixtureStdio({ FIXTURE_PID_FILE: pidFile, FIXTURE_CHILD: "1" }) });
    await s.toolsFor(["mcp:fixture"], () => {}, never);
    const pids = fixturePids(pidFile);
    expect(pids).toHaveLength(2);
    expect(pids.every(pidAlive)).toBe(true);
    await s.closeAll();
    expect(await survivors(pids)).toEqual([]);
    // Nothing starts once closed.
    const warnings: string[] = [];
    const again = new McpServers({ other: fixtureStdio() });
    await again.closeAll();
    expect((await again.toolsFor(["mcp:other"], (m) => warnings.push(m), never)).size).toBe(0);
    expect(warnings[0]).toContain("not started: the run is ending");
  });
});

describe("McpServers over streamable HTTP", () => {
  test("lists and calls the fixture's tools on 127.0.0.1", async () => {
    const http = await startHttpFixture();
    cleanups.push(() => http.stop());
    const s = servers({
      web: { transport: "http", url: http.url, headers: {}, trust: false, startupTimeoutMs: 15_000 },
    });
    const tools = await s.toolsFor(["mcp:web/echo"], () => {}, never);
    expect([...tools.keys()]).toEqual(["mcp__web__echo"]);
    const out = await tools.get("mcp__web__echo")?.run({ text: "over http" }, await context());
    expect(out?.modelText).toBe("echo: over http");
    const [report] = await s.report(never);
    expect(report).toMatchObject({ name: "web", transport: "http", state: "running" });
  });
});
