/**
 * OAuth for HTTP MCP servers end to end: bin/agent (no TTY) against the OAuth fixture (the MCP SDK's own
 * authorization-server and bearer-auth parts, mcp-oauth-fixture-server.ts) and the fake LLM server.
 * A run that meets an unauthorized server names `agent mcp login`; `agent mcp login --headless` stores a
 * token (0600 in a 0700 folder) that is then used, and never shows up in a transcript, an event, `mcp list`
 * or a request to another server; a run's end closes the HTTP session with DELETE; logout forgets it.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { startOAuthFixture } from "../../support/mcp-fixture.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  makeE2eSandbox,
  onlyTranscriptText,
  parseJsonLines,
  runAgentIn,
  toolResultsOf,
} from "../support.ts";

// Each test starts servers and several agent processes; a bound for "it ended at all", never a timing check.
setDefaultTimeout(90_000);

let llm: FakeLlmServer;
let sandbox: E2eSandbox;
const stops: (() => void)[] = [];

beforeEach(async () => {
  llm = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  const pending = llm.pending();
  await llm.close();
  sandbox.cleanup();
  expect(pending).toBe(0);
});

interface LoggedRequest {
  method: string;
  path: string;
  authorization: string | null;
}

/** Starts an OAuth fixture (or, with `open`, one that asks for no token) logging into a file. */
async function fixture(
  name: string,
  open = false,
  env: Record<string, string> = {},
): Promise<{ url: string; requests(): LoggedRequest[] }> {
  const log = join(sandbox.dir, `${name}.log`);
  const started = await startOAuthFixture({
    FIXTURE_LOG: log,
    ...(open ? { FIXTURE_OPEN: "1" } : {}),
    ...env,
  });
  stops.push(started.stop);
  return {
    url: started.url,
    requests: () =>
      existsSync(log) ? (parseJsonLines(readFileSync(log, "utf8")) as unknown as LoggedRequest[]) : [],
  };
}

function writeConfig(servers: Record<string, string>): void {
  const dir = join(sandbox.configDir, "agent");
  mkdirSync(join(dir, "agents"), { recursive: true });
  const yaml = Object.entries(servers)
    .map(([name, url]) => `  ${name}:\n    url: ${url}\n    startup_timeout_ms: 30000\n`)
    .join("");
  writeFileSync(join(dir, "config.yaml"), `mcp_servers:\n${yaml}`);
  writeFileSync(
    join(dir, "agents", "mcp-user.yaml"),
    `name: mcp-user\ndescription: uses MCP tools\nsystem_prompt: Use the tools.\ncapabilities: ${JSON.stringify(
      Object.keys(servers).map((n) => `mcp:${n}`),
    )}\n`,
  );
}

const authDir = () => join(sandbox.stateDir, "agent", "mcp-auth");

/** The access token the login stored (the only record's). */
function storedToken(): string {
  const [file] = readdirSync(authDir());
  const record = JSON.parse(readFileSync(join(authDir(), file as string), "utf8")) as {
    tokens?: { access_token?: string };
  };
  const token = record.tokens?.access_token;
  if (!token) throw new Error("no token stored");
  return token;
}

describe("OAuth for HTTP MCP servers", () => {
  test("a run that meets an unauthorized server warns `run: agent mcp login NAME` and goes on", async () => {
    const secure = await fixture("secure");
    writeConfig({ secure: secure.url });
    llm.enqueue({ text: "Done without it." });
    const result = await runAgentIn(
      sandbox,
      ["run", "go", "--agent", "mcp-user", "-o", "stream-json"],
      anthropicEnv(sandbox, llm),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("MCP server secure: failed to start: it needs authorization");
    expect(result.stderr).toContain("run: agent mcp login secure");
    const events = parseJsonLines(result.stdout);
    const warning = events.find((e) => e.type === "warning" || e.kind === "warning");
    expect(JSON.stringify(warning)).toContain("run: agent mcp login secure");
    expect(events.at(-1)?.type).toBe("result");
    // Nothing was registered or stored by a run: only a login does that.
    expect(secure.requests().some((r) => r.path === "/register")).toBe(false);
    const list = await runAgentIn(sandbox, ["mcp", "list", "--json"], sandbox.env());
    const rows = JSON.parse(list.stdout) as { name: string; state: string; error?: string }[];
    expect(rows).toEqual([
      expect.objectContaining({
        name: "secure",
        state: "failed",
        error: expect.stringContaining("run: agent mcp login secure"),
      }),
    ]);
  });

  test("login never waits without a terminal: a clear message and exit 2", async () => {
    const secure = await fixture("secure");
    writeConfig({ secure: secure.url });
    const result = await runAgentIn(sandbox, ["mcp", "login", "secure"], sandbox.env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("agent mcp login secure needs a terminal");
    expect(result.stderr).toContain("--headless");
    expect(existsSync(authDir())).toBe(false);
    const unknown = await runAgentIn(sandbox, ["mcp", "login", "nothere", "--headless"], sandbox.env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no MCP server nothere in config (HTTP servers: secure");
  });

  test("a login that cannot reach its server fails with exit 1 naming why", async () => {
    writeConfig({ gone: "http://127.0.0.1:9/mcp" });
    const result = await runAgentIn(sandbox, ["mcp", "login", "gone", "--headless"], sandbox.env());
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "agent: login to gone failed: connection refused at 127.0.0.1:9 (is the server running?)\n",
    );
  });

  test("login --headless stores a private token that runs use, sent to its server only, never shown; a run's end sends DELETE; logout forgets it", async () => {
    const secure = await fixture("secure");
    const other = await fixture("other", true);
    writeConfig({ secure: secure.url, other: other.url });

    const login = await runAgentIn(sandbox, ["mcp", "login", "secure", "--headless"], sandbox.env());
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    expect(login.stdout).toBe(`logged in to secure (1 tools); the token is stored for ${secure.url} only\n`);
    expect(statSync(authDir()).mode & 0o777).toBe(0o700);
    const files = readdirSync(authDir());
    expect(files).toHaveLength(1);
    expect(statSync(join(authDir(), files[0] as string)).mode & 0o777).toBe(0o600);
    const token = storedToken();

    const list = await runAgentIn(sandbox, ["mcp", "list", "--json"], sandbox.env());
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout) as { name: string; state: string; tools: string[] }[];
    expect(rows.map((r) => [r.name, r.state, r.tools])).toEqual([
      ["secure", "running", ["echo"]],
      ["other", "running", ["echo"]],
    ]);
    expect(list.stdout + list.stderr).not.toContain(token);

    llm.enqueue(
      { toolCalls: [{ name: "mcp__secure__echo", args: { text: "authorized" } }] },
      { text: "Ok." },
    );
    const first = llm.requests.length;
    const seenBefore = secure.requests().length;
    const run = await runAgentIn(
      sandbox,
      ["run", "echo", "--agent", "mcp-user", "--allow", "mcp:secure/echo", "-o", "stream-json"],
      anthropicEnv(sandbox, llm),
    );
    expect(run.code).toBe(0);
    const requests = llm.requests.slice(first);
    expect(toolResultsOf(requests[1]).join("")).toContain("echo: authorized");

    // The token reached its server on every MCP request of the run, and the run's end closed the session.
    const mcpRequests = secure.requests().slice(seenBefore);
    expect(mcpRequests.map((r) => r.path).every((p) => p === "/mcp")).toBe(true);
    expect(mcpRequests.every((r) => r.authorization === `Bearer ${token}`)).toBe(true);
    expect(mcpRequests.at(-1)?.method).toBe("DELETE");
    // Another server never saw it, nor any Authorization header; the other server's session is closed too.
    expect(other.requests().length).toBeGreaterThan(0);
    expect(other.requests().every((r) => r.authorization === null)).toBe(true);
    expect(other.requests().at(-1)?.method).toBe("DELETE");
    // Nor did the model, the transcript, the events or the terminal.
    expect(JSON.stringify(requests.map((r) => r.body))).not.toContain(token);
    expect(onlyTranscriptText(sandbox)).not.toContain(token);
    expect(run.stdout + run.stderr).not.toContain(token);

    const logout = await runAgentIn(sandbox, ["mcp", "logout", "secure"], sandbox.env());
    expect(logout.code).toBe(0);
    expect(logout.stdout).toBe("logged out of secure: its tokens and registration are deleted\n");
    expect(readdirSync(authDir())).toEqual([]);
    const after = await runAgentIn(sandbox, ["mcp", "list"], sandbox.env());
    expect(after.stdout).toContain(
      "secure\thttp\tfailed\tfailed to start: it needs authorization; run: agent mcp login secure",
    );
  });

  test("a call that needs a wider scope (403 insufficient_scope) says so, and the next login asks for it", async () => {
    const secure = await fixture("secure", false, { FIXTURE_STEP_UP_SCOPE: "mcp:write" });
    writeConfig({ secure: secure.url });
    expect((await runAgentIn(sandbox, ["mcp", "login", "secure", "--headless"], sandbox.env())).code).toBe(0);
    const call = { toolCalls: [{ name: "mcp__secure__echo", args: { text: "write" } }] };
    const args = ["run", "echo", "--agent", "mcp-user", "--allow", "mcp:secure/echo"];

    const again = { toolCalls: [{ name: "mcp__secure__echo", args: { text: "again" } }] };
    llm.enqueue(call, again, { text: "Could not." });
    let first = llm.requests.length;
    const denied = await runAgentIn(sandbox, [...args, "-o", "json"], anthropicEnv(sandbox, llm));
    expect(denied.code).toBe(0);
    expect(toolResultsOf(llm.requests[first + 1]).join("")).toContain(
      "mcp:secure/echo failed: it needs authorization (scope mcp:tools mcp:write); run: agent mcp login secure",
    );
    // The user sees it too, once however often the model calls: one stderr line and one `mcp` warning.
    const needed =
      "MCP server secure: tool echo failed: it needs authorization (scope mcp:tools mcp:write); run: agent mcp login secure";
    expect(denied.stderr.split("\n").filter((line) => line.includes(needed))).toHaveLength(1);
    const result = JSON.parse(denied.stdout) as {
      status: string;
      warnings: { code: string; message: string }[];
    };
    expect(result.warnings).toEqual([expect.objectContaining({ code: "mcp", message: needed })]);

    const login = await runAgentIn(sandbox, ["mcp", "login", "secure", "--headless"], sandbox.env());
    expect(login.code).toBe(0);
    llm.enqueue(call, { text: "Done." });
    first = llm.requests.length;
    const allowed = await runAgentIn(sandbox, args, anthropicEnv(sandbox, llm));
    expect(allowed.code).toBe(0);
    expect(toolResultsOf(llm.requests[first + 1]).join("")).toContain("echo: write");
  });

  test("a scope the server keeps refusing after it was granted stops asking for logins", async () => {
    const secure = await fixture("secure", false, {
      FIXTURE_STEP_UP_SCOPE: "mcp:write",
      FIXTURE_STEP_UP_NEVER: "1",
    });
    writeConfig({ secure: secure.url });
    const login = () => runAgentIn(sandbox, ["mcp", "login", "secure", "--headless"], sandbox.env());
    const call = { toolCalls: [{ name: "mcp__secure__echo", args: { text: "write" } }] };
    const run = async () => {
      llm.enqueue(call, { text: "Could not." });
      const args = ["run", "echo", "--agent", "mcp-user", "--allow", "mcp:secure/echo", "-o", "json"];
      const out = await runAgentIn(sandbox, args, anthropicEnv(sandbox, llm));
      expect(out.code).toBe(0);
      const result = JSON.parse(out.stdout) as { warnings: { code: string; message: string }[] };
      return { stderr: out.stderr, warnings: result.warnings.filter((w) => w.code === "mcp") };
    };
    const hint = "run: agent mcp login secure";
    expect((await login()).code).toBe(0);
    // A person follows each hint: the first step-up is asked for, and the second after one refusal.
    for (let round = 1; round <= 2; round++) {
      const seen = await run();
      expect(seen.stderr).toContain(hint);
      expect(seen.warnings.map((w) => w.message)).toEqual([
        `MCP server secure: tool echo failed: it needs authorization (scope mcp:tools mcp:write); ${hint}`,
      ]);
      expect((await login()).code).toBe(0);
    }
    const authorizations = () => secure.requests().filter((r) => r.path === "/authorize").length;
    const before = authorizations();
    // Refused with a token granted for the scope twice: the run says so, and asks for no login.
    const last = await run();
    expect(last.stderr).not.toContain(hint);
    expect(last.warnings.map((w) => w.message)).toEqual([
      "MCP server secure: tool echo failed: it refused scope mcp:tools mcp:write 2 times with a token granted for it; logging in again will not help: ask the server's administrator for that permission, then run: agent mcp logout secure and agent mcp login secure",
    ]);
    expect(authorizations()).toBe(before);
  });

  test("a run refreshes an access token the server no longer accepts, with no person involved", async () => {
    const secure = await fixture("secure", false, { FIXTURE_REVOKE_ON_DELETE: "1" });
    writeConfig({ secure: secure.url });
    expect((await runAgentIn(sandbox, ["mcp", "login", "secure", "--headless"], sandbox.env())).code).toBe(0);
    const before = storedToken();
    const args = ["run", "echo", "--agent", "mcp-user", "--allow", "mcp:secure/echo"];
    // The login's own session ended with DELETE: its token is revoked, so this run starts with a 401.
    llm.enqueue({ toolCalls: [{ name: "mcp__secure__echo", args: { text: "refreshed" } }] }, { text: "Ok." });
    const first = llm.requests.length;
    const seenBefore = secure.requests().length;
    const run = await runAgentIn(sandbox, args, anthropicEnv(sandbox, llm));
    expect(run.code).toBe(0);
    expect(toolResultsOf(llm.requests[first + 1]).join("")).toContain("echo: refreshed");
    const during = secure.requests().slice(seenBefore);
    expect(during[0]?.authorization).toBe(`Bearer ${before}`);
    expect(during.some((r) => r.method === "POST" && r.path === "/token")).toBe(true);
    expect(during.some((r) => r.path === "/authorize")).toBe(false);
    const after = storedToken();
    expect(after).not.toBe(before);
    expect(during.filter((r) => r.path === "/mcp").at(-1)?.authorization).toBe(`Bearer ${after}`);
  });

  test("a token a server echoes (in a tool result and in an HTTP 500 body) reaches neither the model, the transcript nor stream-json", async () => {
    const secure = await fixture("secure", false, { FIXTURE_ECHO_AUTH: "1" });
    writeConfig({ secure: secure.url });
    expect((await runAgentIn(sandbox, ["mcp", "login", "secure", "--headless"], sandbox.env())).code).toBe(0);
    const token = storedToken();
    llm.enqueue(
      { toolCalls: [{ name: "mcp__secure__whoami", args: {} }] },
      { toolCalls: [{ name: "mcp__secure__crash", args: {} }] },
      { text: "Done." },
    );
    const first = llm.requests.length;
    const run = await runAgentIn(
      sandbox,
      ["run", "who", "--agent", "mcp-user", "--allow", "mcp:secure", "-o", "stream-json"],
      anthropicEnv(sandbox, llm),
    );
    expect(run.code).toBe(0);
    const requests = llm.requests.slice(first);
    expect(toolResultsOf(requests[1]).join("")).toContain("you are [REDACTED]");
    expect(toolResultsOf(requests[2]).join("")).toContain("upstream failed for");
    expect(JSON.stringify(requests.map((r) => r.body))).not.toContain(token);
    expect(onlyTranscriptText(sandbox)).not.toContain(token);
    expect(run.stdout + run.stderr).not.toContain(token);
  });

  test("two runs refreshing a rotating refresh token at once both work, and the login survives", async () => {
    // The login's DELETE revokes its access token, so both lists start with a 401; the fixture holds each
    // refresh until both have met theirs, so the two refreshes overlap. Only the login's token is revoked:
    // the two lists share the refreshed one, and the first to close its session must not cut off the other.
    const secure = await fixture("secure", false, {
      FIXTURE_REVOKE_ON_DELETE: "first",
      FIXTURE_ROTATE_REFRESH: "1",
      FIXTURE_REFRESH_AFTER_401S: "2",
    });
    writeConfig({ secure: secure.url });
    expect((await runAgentIn(sandbox, ["mcp", "login", "secure", "--headless"], sandbox.env())).code).toBe(0);
    const lists = await Promise.all(
      [1, 2].map(() => runAgentIn(sandbox, ["mcp", "list", "--json"], sandbox.env())),
    );
    for (const list of lists) {
      expect(JSON.parse(list.stdout)).toEqual([
        expect.objectContaining({ name: "secure", state: "running" }),
      ]);
    }
    // The record still holds a working login: a third list starts with it.
    const after = await runAgentIn(sandbox, ["mcp", "list", "--json"], sandbox.env());
    expect(JSON.parse(after.stdout)).toEqual([expect.objectContaining({ name: "secure", state: "running" })]);
    expect(secure.requests().some((r) => r.path === "/authorize" && r.method === "GET")).toBe(true);
  });

  test("protected-resource metadata that never ends is read only up to its 1 MiB cap, and the list ends", async () => {
    const secure = await fixture("secure", false, { FIXTURE_ENDLESS_METADATA: "1" });
    writeConfig({ secure: secure.url });
    const list = await runAgentIn(sandbox, ["mcp", "list", "--json"], sandbox.env());
    const rows = JSON.parse(list.stdout) as { name: string; state: string; error?: string }[];
    expect(rows[0]?.state).toBe("failed");
    // The SDK treats metadata it cannot read as absent (its 2025-03-26 fallback), so the reason shown
    // is the login hint; what matters is that the read stopped at the cap instead of running for ever.
    expect(rows[0]?.error).toContain("run: agent mcp login secure");
    const endless = secure.requests() as unknown as { endless_bytes?: number }[];
    const served = endless.filter((r) => r.endless_bytes !== undefined).map((r) => r.endless_bytes ?? 0);
    expect(served.length).toBeGreaterThan(0);
    for (const bytes of served) expect(bytes).toBeLessThan(1024 * 1024 + 16 * 1024 * 1024);
  });
});
