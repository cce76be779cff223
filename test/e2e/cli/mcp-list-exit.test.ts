/**
 * `agent mcp list` exit codes as docs/mcp.md states them (issue 21, newcomer item 13): a server that fails
 * to start is a `failed` row and the command still exits 0; a bad config file exits 3.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, runAgent } from "../../cli/run-agent.ts";

const sandbox = makeSandbox();
afterAll(() => sandbox.cleanup());
const configFile = join(sandbox.configDir, "agent", "config.yaml");
mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });

test("a server that fails to start is a failed row; exit 0", async () => {
  writeFileSync(configFile, "mcp_servers:\n  broken:\n    command: /nonexistent/mcp-server\n");
  const result = await runAgent(["mcp", "list", "--json"], { env: sandbox.env() });
  expect(result.code).toBe(0);
  const rows = JSON.parse(result.stdout) as { name: string; state: string; error?: string }[];
  expect(rows.map((row) => [row.name, row.state])).toEqual([["broken", "failed"]]);
  expect(rows[0]?.error).toContain("command not found: /nonexistent/mcp-server");
});

test("a config file that is not valid YAML: exit 3, naming the file", async () => {
  writeFileSync(configFile, "mcp_servers: [\n");
  const result = await runAgent(["mcp", "list"], { env: sandbox.env() });
  expect(result.code).toBe(3);
  expect(result.stderr).toContain(`${configFile} line 2: invalid YAML`);
});
