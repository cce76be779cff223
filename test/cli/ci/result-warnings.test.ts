/**
 * Issue 17 item 4: why an MCP server failed reaches the JSON result, not only stderr and the stream-json
 * `warning` event. `agent run` runs in the test process (../run/in-process.ts) against the fake LLM server
 * with user-config servers that cannot start (a closed port over HTTP, a stdio command that does not
 * exist). `agent helper`'s own warnings: test/e2e/ci/result-warnings.test.ts.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicEnv, type E2eSandbox, freshServerAndSandbox } from "../../e2e/support.ts";
import { closedPort } from "../../support/closed-port.ts";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { runInSandbox } from "../run/in-process.ts";

// Agent runs on a loaded machine take seconds; a bound for "it ended at all", never a timing assertion.
setDefaultTimeout(60_000);

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

interface ResultWarnings {
  warnings: { agent: string; code: string; message: string }[];
  warnings_dropped?: number;
}

/** The user config's servers and a user spec `mcp-user` that names them. */
function writeServers(serversYaml: string, names: string[]): void {
  const dir = join(sandbox.configDir, "agent");
  mkdirSync(join(dir, "agents"), { recursive: true });
  writeFileSync(join(dir, "config.yaml"), `mcp_servers:\n${serversYaml}`);
  const caps = ["read_file", ...names.map((n) => `mcp:${n}`)];
  writeFileSync(
    join(dir, "agents", "mcp-user.yaml"),
    `name: mcp-user\ndescription: uses MCP tools\nsystem_prompt: Use the tools.\ncapabilities: ${JSON.stringify(caps)}\n`,
  );
}

const MISSING_COMMAND = "agent-test-no-such-mcp-server";

describe("agent run: warnings in the result", () => {
  test("-o json names a closed port and a missing command, code mcp, and the run goes on", async () => {
    const port = await closedPort();
    writeServers(
      `  remote:\n    url: http://127.0.0.1:${port}/mcp\n    startup_timeout_ms: 30000\n` +
        `  local:\n    command: ${MISSING_COMMAND}\n    startup_timeout_ms: 30000\n`,
      ["remote", "local"],
    );
    server.enqueue({ text: "Done without them." });
    const result = await runInSandbox(
      sandbox,
      ["run", "go", "--agent", "mcp-user", "-o", "json"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as ResultWarnings & { answer: string };
    expect(record.answer).toBe("Done without them.");
    const mcp = record.warnings.filter((w) => w.code === "mcp");
    expect(mcp).toHaveLength(2);
    for (const w of mcp) expect(w.agent).toBe("root");
    const remote = mcp.find((w) => w.message.includes("remote"));
    const local = mcp.find((w) => w.message.includes("local"));
    expect(remote?.message).toContain(`connection refused at 127.0.0.1:${port}`);
    expect(local?.message).toContain(`command not found: ${MISSING_COMMAND}`);
    expect(record.warnings_dropped).toBeUndefined();
    // The same reasons as on stderr.
    expect(result.stderr).toContain("connection refused");
    expect(result.stderr).toContain("command not found");
  });

  test("-o stream-json: the last line carries the same warnings as the warning events before it", async () => {
    writeServers(`  local:\n    command: ${MISSING_COMMAND}\n    startup_timeout_ms: 30000\n`, ["local"]);
    server.enqueue({ text: "Done." });
    const result = await runInSandbox(
      sandbox,
      ["run", "go", "--agent", "mcp-user", "-o", "stream-json"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const events = lines.filter((l) => l.type === "warning");
    const last = lines.at(-1) as unknown as ResultWarnings & { type: string };
    expect(last.type).toBe("result");
    expect(last.warnings).toEqual(
      events.map((e) => ({ agent: e.agent, code: e.code, message: e.message })) as ResultWarnings["warnings"],
    );
    expect(last.warnings.find((w) => w.code === "mcp")?.message).toContain(
      `command not found: ${MISSING_COMMAND}`,
    );
  });

  test("a run without warnings has warnings: []", async () => {
    server.enqueue({ text: "Hello." });
    const result = await runInSandbox(
      sandbox,
      ["run", "say hello", "-o", "json"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as ResultWarnings;
    expect(record.warnings).toEqual([]);
    expect("warnings_dropped" in record).toBe(false);
  });
});
