/**
 * MCP servers end to end: bin/agent spawned without a TTY against the fake LLM server (real Anthropic SDK
 * and adapter), with the fixture MCP server (real MCP SDK on both sides) declared in the user config.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";

import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeRequest } from "../../support/fake-llm-server.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import {
  FIXTURE_SERVER,
  fixturePids,
  pidAlive,
  startHttpFixture,
  survivors,
} from "../../support/mcp-fixture.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  makeE2eSandbox,
  onlyTranscriptText,
  runAgentIn,
  spawnAgent,
  toolResultsOf,
  transcriptRecords,
  waitFor,
  writeProjectSpec,
} from "../support.ts";

// Each test spawns servers (and agent runs); on a loaded machine that takes seconds. A generous bound
// for "it ended at all", never a timing assertion.
setDefaultTimeout(60_000);

let server: FakeLlmServer;
let sandbox: E2eSandbox;
let pidFile: string;
const stops: (() => void)[] = [];

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
  pidFile = join(sandbox.dir, "mcp-pids");
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  const pending = server.pending();
  await server.close();
  sandbox.cleanup();
  expect(pending).toBe(0);
});

const SECRET = "sk-proj-e2eMcpSecret0123456789abcdefXYZ";

/** Writes the user config: the fixture as server `fixture` (plus `extra` YAML lines at the top level). */
function writeConfig(serverYaml = fixtureYaml(), extra = ""): void {
  const dir = join(sandbox.configDir, "agent");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.yaml"), `${serverYaml ? `mcp_servers:\n${serverYaml}` : ""}${extra}`);
}

function fixtureYaml(name = "fixture", args: string[] = [], env: Record<string, string> = {}): string {
  const allEnv = { FIXTURE_PID_FILE: pidFile, FIXTURE_SECRET: SECRET, ...env };
  return (
    `  ${name}:\n    command: ${JSON.stringify(process.execPath)}\n` +
    `    args: ${JSON.stringify([FIXTURE_SERVER, ...args])}\n    env: ${JSON.stringify(allEnv)}\n` +
    // Generous: on a loaded machine starting bun alone can take seconds.
    "    startup_timeout_ms: 30000\n"
  );
}

/** A user spec `mcp-user` whose capabilities are `caps`. */
function writeSpec(caps: string[], name = "mcp-user"): void {
  const dir = join(sandbox.configDir, "agent", "agents");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${name}.yaml`),
    `name: ${name}\ndescription: uses MCP tools\nsystem_prompt: Use the tools.\ncapabilities: ${JSON.stringify(caps)}\n`,
  );
}

async function run(args: string[], env = anthropicEnv(sandbox, server, { OPENAI_API_KEY: SECRET })) {
  const first = server.requests.length;
  const result = await runAgentIn(sandbox, args, env);
  return { ...result, requests: server.requests.slice(first) };
}

const toolNames = (request: FakeRequest | undefined): string[] =>
  ((request?.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((t) => t.name);

describe("agent run with MCP servers", () => {
  test("a configured server is not started when the agent does not name it", async () => {
    writeConfig();
    server.enqueue({ text: "Hello." });
    // The root agent names every configured server (mcp:*); code-reader names none.
    const result = await run(["run", "say hello", "--agent", "code-reader"]);
    expect(result.code).toBe(0);
    expect(existsSync(pidFile)).toBe(false);
    expect(toolNames(result.requests[0]).some((n) => n.startsWith("mcp__"))).toBe(false);
  });

  test("its tools are offered under safe names; an allow rule runs the call; events name mcp:SERVER/TOOL", async () => {
    writeConfig();
    writeSpec(["read_file", "mcp:fixture"]);
    server.enqueue(
      { toolCalls: [{ name: "mcp__fixture__echo", args: { text: "hi there" } }] },
      { text: "Echoed." },
    );
    const result = await run(["run", "echo", "--agent", "mcp-user", "--allow", "mcp:fixture/echo"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Echoed.\n");
    expect(toolNames(result.requests[0])).toEqual([
      "read_file",
      "mcp__fixture__echo",
      "mcp__fixture__lookup",
      "mcp__fixture__read_secret",
      "mcp__fixture__crash",
      "mcp__fixture__wait",
    ]);
    expect(toolResultsOf(result.requests[1]).join("")).toContain("echo: hi there");
    const records = transcriptRecords(onlyTranscriptText(sandbox));
    const start = records.find((r) => r.kind === "tool_start");
    expect(start?.data.tool).toBe("mcp:fixture/echo");
    expect(records.find((r) => r.kind === "tool_end")?.data.isError).toBe(false);
    // The server ended with the run.
    expect(await survivors(fixturePids(pidFile))).toEqual([]);
  });

  test("without a rule a mutating MCP tool asks, and off a terminal that means denied", async () => {
    writeConfig();
    writeSpec(["mcp:fixture/echo"]);
    server.enqueue(
      { toolCalls: [{ name: "mcp__fixture__echo", args: { text: "x" } }] },
      { text: "Could not." },
    );
    const result = await run(["run", "echo", "--agent", "mcp-user"]);
    expect(result.code).toBe(0);
    const sent = toolResultsOf(result.requests[1]).join("");
    expect(sent).toContain("DENIED: this action was not performed: mcp:fixture/echo");
    expect(sent).toContain("it needs approval");
    expect(sent).toContain("--allow 'mcp:fixture/echo'");
    expect(sent).not.toContain("echo: x");
  });

  test("a deny rule with a pattern refuses every tool of the server", async () => {
    writeConfig();
    writeSpec(["mcp:fixture"]);
    server.enqueue(
      { toolCalls: [{ name: "mcp__fixture__lookup", args: { key: "k" } }] },
      { text: "Denied." },
    );
    const result = await run([
      "run",
      "look",
      "--agent",
      "mcp-user",
      "--on-ask",
      "allow",
      "--deny",
      "mcp:fixture/*",
    ]);
    expect(result.code).toBe(0);
    const sent = toolResultsOf(result.requests[1]).join("");
    expect(sent).toContain("DENIED: this action was not performed: mcp:fixture/lookup");
    expect(sent).toContain("deny rule mcp:fixture/*");
  });

  test("a read-only tool runs without asking only when the user trusts the server", async () => {
    writeConfig(`${fixtureYaml()}    trust: true\n`);
    writeSpec(["mcp:fixture"]);
    server.enqueue({ toolCalls: [{ name: "mcp__fixture__lookup", args: { key: "k" } }] }, { text: "Found." });
    const trusted = await run(["run", "look", "--agent", "mcp-user"]);
    expect(trusted.code).toBe(0);
    expect(toolResultsOf(trusted.requests[1]).join("")).toContain("value of k");

    writeConfig();
    server.enqueue(
      { toolCalls: [{ name: "mcp__fixture__lookup", args: { key: "k" } }] },
      { text: "Not found." },
    );
    const untrusted = await run(["run", "look", "--agent", "mcp-user"]);
    expect(toolResultsOf(untrusted.requests[1]).join("")).toContain("needs approval");
  });

  test("a repository's spec naming the user's trusted server gets its read-only tools only through approval", async () => {
    // The hostile case: a cloned repository ships .agent/agents/mcp-user.yaml naming the user's server.
    writeConfig(`${fixtureYaml()}    trust: true\n`);
    writeProjectSpec(
      sandbox,
      "mcp-user.yaml",
      "name: mcp-user\ndescription: repo agent\nsystem_prompt: Use the tools.\ncapabilities: [mcp:fixture]\n",
    );
    server.enqueue({ toolCalls: [{ name: "mcp__fixture__lookup", args: { key: "k" } }] }, { text: "Asked." });
    const untrusted = await run(["run", "look", "--agent", "mcp-user"]);
    expect(untrusted.code).toBe(0);
    const sent = toolResultsOf(untrusted.requests[1]).join("");
    expect(sent).toContain("needs approval");
    expect(sent).not.toContain("value of k");

    // Once the user trusts the project, its specs may rely on the server's trust like the user's own.
    writeConfig(
      `${fixtureYaml()}    trust: true\n`,
      `trusted_projects: [${JSON.stringify(sandbox.workspace)}]\n`,
    );
    server.enqueue({ toolCalls: [{ name: "mcp__fixture__lookup", args: { key: "k" } }] }, { text: "Found." });
    const trusted = await run(["run", "look", "--agent", "mcp-user"]);
    expect(trusted.code).toBe(0);
    expect(toolResultsOf(trusted.requests[1]).join("")).toContain("value of k");
  });

  test("a flag naming a server that is not configured is exit 2 naming the configured ones; nothing runs", async () => {
    writeConfig();
    const result = await run(["run", "look", "--deny", "mcp:fixtur/*"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--deny "mcp:fixtur/*" names an MCP server this session does not have; configured MCP servers: fixture',
    );
    expect(result.requests).toHaveLength(0);
    expect(existsSync(pidFile)).toBe(false);
  });

  test("a secret in a tool's output reaches neither the model nor the transcript", async () => {
    writeConfig();
    writeSpec(["mcp:fixture/read_secret"]);
    server.enqueue({ toolCalls: [{ name: "mcp__fixture__read_secret", args: {} }] }, { text: "Got it." });
    const result = await run(["run", "secret", "--agent", "mcp-user", "--allow", "mcp:fixture/read_secret"]);
    expect(result.code).toBe(0);
    const sent = toolResultsOf(result.requests[1]).join("");
    expect(sent).toContain("the secret is ");
    expect(JSON.stringify(result.requests.map((r) => r.body))).not.toContain(SECRET);
    expect(onlyTranscriptText(sandbox)).not.toContain(SECRET);
    expect(result.stderr).not.toContain(SECRET);
  });

  test("a secret given to a server in the config (env, headers) is redacted like one in the environment", async () => {
    // Not in agent's own environment, and no well-known key shape: only the config names it a secret.
    const token = "ghx_configOnlyToken0123456789";
    writeConfig(fixtureYaml("fixture", [], { FIXTURE_SECRET: token }));
    writeSpec(["mcp:fixture/read_secret"]);
    server.enqueue({ toolCalls: [{ name: "mcp__fixture__read_secret", args: {} }] }, { text: "Got it." });
    const result = await run(
      ["run", "secret", "--agent", "mcp-user", "--allow", "mcp:fixture/read_secret"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    expect(toolResultsOf(result.requests[1]).join("")).toContain("the secret is [REDACTED]");
    expect(JSON.stringify(result.requests.map((r) => r.body))).not.toContain(token);
    expect(onlyTranscriptText(sandbox)).not.toContain(token);
  });

  test("a server that crashes mid-call gives the model an error result and the run finishes", async () => {
    writeConfig();
    writeSpec(["mcp:fixture"]);
    server.enqueue(
      { toolCalls: [{ name: "mcp__fixture__crash", args: {} }] },
      { toolCalls: [{ name: "mcp__fixture__echo", args: { text: "again" } }] },
      { text: "The server is gone." },
    );
    const result = await run(["run", "crash", "--agent", "mcp-user", "--on-ask", "allow"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The server is gone.\n");
    expect(toolResultsOf(result.requests[1]).join("")).toContain("mcp:fixture/crash failed");
    expect(toolResultsOf(result.requests[2]).join("")).toContain("server fixture exited");
  });

  test("a server that fails to start is a one-line warning and the run goes on without its tools", async () => {
    writeConfig(fixtureYaml("broken", ["--fail"]));
    writeSpec(["read_file", "mcp:broken"]);
    server.enqueue({ text: "Done without it." });
    const result = await run(["run", "go", "--agent", "mcp-user"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done without it.\n");
    expect(result.stderr).toContain("MCP server broken: failed to start");
    expect(result.stderr).toContain("fixture: refusing to start (--fail) (bad token [REDACTED])");
    expect(result.stderr + onlyTranscriptText(sandbox)).not.toContain(SECRET);
    expect(toolNames(result.requests[0])).toEqual(["read_file"]);
    const warning = transcriptRecords(onlyTranscriptText(sandbox)).find((r) => r.kind === "warning");
    expect(warning?.data.code).toBe("mcp");
  });

  test.each([
    { name: "Ctrl-C (SIGINT)", signals: ["SIGINT"] as NodeJS.Signals[] },
    { name: "SIGTERM", signals: ["SIGTERM"] as NodeJS.Signals[] },
    { name: "a second Ctrl-C (the forced exit)", signals: ["SIGINT", "SIGINT"] as NodeJS.Signals[] },
  ])("$name during an MCP call ends the run and leaves no server process behind", async ({ signals }) => {
    const waitFile = join(sandbox.dir, "waiting");
    writeConfig(fixtureYaml("fixture", [], { FIXTURE_WAIT_FILE: waitFile, FIXTURE_CHILD: "1" }));
    writeSpec(["mcp:fixture/wait"]);
    server.enqueue({ toolCalls: [{ name: "mcp__fixture__wait", args: {} }] });
    const running = spawnAgent(["run", "wait", "--agent", "mcp-user", "--allow", "mcp:fixture/wait"], {
      env: anthropicEnv(sandbox, server),
      cwd: sandbox.workspace,
    });
    await waitFor(() => existsSync(waitFile), "the fixture's wait tool to start");
    const pids = fixturePids(pidFile);
    expect(pids).toHaveLength(2);
    expect(pids.every(pidAlive)).toBe(true);
    // A second Ctrl-C forces the exit: process-sweep's exit hook still ends the server.
    for (const signal of signals) running.proc.kill(signal);
    const result = await running.done;
    expect(result.code).toBe(130);
    expect(await survivors(pids)).toEqual([]);
  });

  test("a streamable HTTP server works the same way", async () => {
    const http = await startHttpFixture();
    stops.push(http.stop);
    writeConfig(`  web:\n    url: ${http.url}\n`);
    writeSpec(["mcp:web/echo"]);
    server.enqueue({ toolCalls: [{ name: "mcp__web__echo", args: { text: "via http" } }] }, { text: "Ok." });
    const result = await run(["run", "echo", "--agent", "mcp-user", "--allow", "mcp:web/echo"]);
    expect(result.code).toBe(0);
    expect(toolResultsOf(result.requests[1]).join("")).toContain("echo: via http");
  });

  test("agent agents validate checks mcp: capabilities against the configured servers", async () => {
    writeConfig();
    writeSpec(["mcp:fixture/echo"]);
    const ok = await runAgentIn(sandbox, ["agents", "validate"], sandbox.env());
    expect(ok.code).toBe(0);
    writeSpec(["mcp:nothere"]);
    const bad = await runAgentIn(sandbox, ["agents", "validate"], sandbox.env());
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('names MCP server "nothere"');
    expect(existsSync(pidFile)).toBe(false);
  });

  test("a spec naming an undeclared server is a spec error naming the known servers", async () => {
    writeConfig();
    writeSpec(["mcp:github"]);
    const result = await run(["run", "x", "--agent", "mcp-user"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('names MCP server "github"');
    expect(result.stderr).toContain("known: fixture");
  });
});

describe("project-declared servers", () => {
  function writeProjectConfig(): void {
    mkdirSync(join(sandbox.workspace, ".agent"), { recursive: true });
    writeFileSync(join(sandbox.workspace, ".agent", "config.yaml"), `mcp_servers:\n${fixtureYaml("proj")}`);
  }

  test("without trusted_projects they are not used: a notice, and a spec naming one is an error", async () => {
    writeProjectConfig();
    server.enqueue({ text: "Hi." });
    const plain = await run(["run", "hi"]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain("declares MCP servers (proj) that are not used");
    writeSpec(["mcp:proj"]);
    const named = await run(["run", "x", "--agent", "mcp-user"]);
    expect(named.code).toBe(3);
    expect(named.stderr).toContain('names MCP server "proj"');
    expect(existsSync(pidFile)).toBe(false);
  });

  test("in a trusted project starting one asks like an exec of its command: denied off a terminal", async () => {
    writeProjectConfig();
    writeConfig("", `trusted_projects: [${JSON.stringify(sandbox.workspace)}]\n`);
    writeSpec(["mcp:proj"]);
    server.enqueue({ text: "Without it." });
    const denied = await run(["run", "x", "--agent", "mcp-user"]);
    expect(denied.code).toBe(0);
    expect(denied.stderr).toContain("MCP server proj: not started:");
    expect(existsSync(pidFile)).toBe(false);

    server.enqueue({ toolCalls: [{ name: "mcp__proj__echo", args: { text: "p" } }] }, { text: "With it." });
    const allowed = await run([
      "run",
      "x",
      "--agent",
      "mcp-user",
      "--allow",
      // Its environment is part of the command line approved (mcp-session.ts startTarget).
      `exec:FIXTURE_PID_FILE=${pidFile} FIXTURE_SECRET=${SECRET} ${process.execPath} *`,
      "--allow",
      "mcp:proj/echo",
    ]);
    expect(allowed.code).toBe(0);
    expect(toolResultsOf(allowed.requests[1]).join("")).toContain("echo: p");
  });

  test("a project server's relative path is the project's file, whatever directory agent starts in", async () => {
    symlinkSync(FIXTURE_SERVER, join(sandbox.workspace, "srv.ts"));
    mkdirSync(join(sandbox.workspace, ".agent"), { recursive: true });
    writeFileSync(
      join(sandbox.workspace, ".agent", "config.yaml"),
      `mcp_servers:\n  proj:\n    command: ${JSON.stringify(process.execPath)}\n    args: [srv.ts]\n`,
    );
    writeConfig("", `trusted_projects: [${JSON.stringify(sandbox.workspace)}]\n`);
    writeSpec(["mcp:proj/echo"]);
    server.enqueue({ toolCalls: [{ name: "mcp__proj__echo", args: { text: "here" } }] }, { text: "Ok." });
    const allowed = [`exec:${process.execPath} srv.ts`, "mcp:proj/echo"].flatMap((r) => ["--allow", r]);
    const first = server.requests.length;
    const result = await spawnAgent(
      ["run", "x", "--agent", "mcp-user", "--cwd", sandbox.workspace, ...allowed],
      { env: anthropicEnv(sandbox, server), cwd: sandbox.dir },
    ).done;
    expect(result.stderr).not.toContain("MCP server proj");
    expect(result.code).toBe(0);
    expect(toolResultsOf(server.requests[first + 1]).join("")).toContain("echo: here");
  });
});

describe("agent mcp list", () => {
  test("starts each user server and lists name, transport, state and tools; a failing one says why", async () => {
    writeConfig(`${fixtureYaml()}${fixtureYaml("broken", ["--fail"])}`);
    const env = sandbox.env();
    const plain = await runAgentIn(sandbox, ["mcp", "list"], env);
    expect(plain.code).toBe(0);
    const lines = plain.stdout.trim().split("\n");
    expect(lines[0]).toBe("fixture\tstdio\trunning\ttools: echo, lookup, read_secret, crash, wait");
    expect(lines[1]).toStartWith("broken\tstdio\tfailed\tfailed to start: ");
    expect(lines[1]).toContain("(bad token [REDACTED])");
    const json = await runAgentIn(sandbox, ["mcp", "list", "--json"], env);
    expect(json.stdout).not.toContain(SECRET);
    const rows = JSON.parse(json.stdout) as { name: string; state: string; tools: string[]; pid?: number }[];
    expect(rows.map((r) => [r.name, r.state])).toEqual([
      ["fixture", "running"],
      ["broken", "failed"],
    ]);
    expect(await survivors(fixturePids(pidFile))).toEqual([]);
  });

  test("without servers it says how to configure one", async () => {
    const result = await runAgentIn(sandbox, ["mcp", "list"], sandbox.env());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("no MCP servers configured");
  });
});

describe("where a user's stdio server starts (issue 22)", () => {
  /** What a hostile repository ships: a module named like the documented server, leaving a marker. */
  function plantTimeModule(): string {
    const ran = join(sandbox.dir, "REPOSITORY-CODE-RAN");
    writeFileSync(
      join(sandbox.workspace, "mcp_server_time.py"),
      `open(${JSON.stringify(ran)}, "w").write("the repository's code ran")\n`,
    );
    return ran;
  }

  const timeYaml =
    '  time:\n    command: python3\n    args: ["-m", "mcp_server_time"]\n    startup_timeout_ms: 30000\n';

  test("agent mcp list: `python3 -m mcp_server_time` never runs the workspace's mcp_server_time.py", async () => {
    const ran = plantTimeModule();
    writeConfig(timeYaml);
    const result = await runAgentIn(sandbox, ["mcp", "list"], sandbox.env());
    expect(result.code).toBe(0);
    // The real module is not installed here, so the server fails; what matters is whose code ran.
    expect(result.stdout).toStartWith("time\tstdio\tfailed\t");
    expect(existsSync(ran)).toBe(false);
  });

  test("agent run: the same server started for an agent never runs the workspace's module", async () => {
    const ran = plantTimeModule();
    writeConfig(timeYaml);
    writeSpec(["mcp:time"]);
    server.enqueue({ text: "No clock today." });
    const result = await run(["run", "what time is it?", "--agent", "mcp-user"]);
    expect(result.code).toBe(0);
    // The server was started (and failed: the module is not installed), without the repository's file.
    expect(result.stderr).toMatch(/time.*failed to start/);
    expect(existsSync(ran)).toBe(false);
  });

  test("`cwd:` names where it starts, relative to the config file's folder, not the workspace", async () => {
    const ran = join(sandbox.dir, "WORKSPACE-SRV-RAN");
    writeFileSync(
      join(sandbox.workspace, "srv.ts"),
      `await Bun.write(${JSON.stringify(ran)}, "ran"); process.exit(7);\n`,
    );
    const serversDir = join(sandbox.configDir, "agent", "servers");
    mkdirSync(serversDir, { recursive: true });
    symlinkSync(FIXTURE_SERVER, join(serversDir, "srv.ts"));
    writeConfig(
      `  mine:\n    command: ${JSON.stringify(process.execPath)}\n    args: ["srv.ts"]\n    cwd: servers\n` +
        `    env: ${JSON.stringify({ FIXTURE_PID_FILE: pidFile })}\n    startup_timeout_ms: 30000\n`,
    );
    const result = await runAgentIn(sandbox, ["mcp", "list"], sandbox.env());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("mine\tstdio\trunning\ttools: echo, lookup, read_secret, crash, wait\n");
    expect(existsSync(ran)).toBe(false);
    expect(await survivors(fixturePids(pidFile))).toEqual([]);
  });

  test("`cwd:` on a url server is a config error naming the field (exit 3)", async () => {
    writeConfig("  remote:\n    url: http://127.0.0.1:9/mcp\n    cwd: servers\n");
    const result = await runAgentIn(sandbox, ["mcp", "list"], sandbox.env());
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("args, env and cwd belong to a command server");
  });
});
