/**
 * A server that cannot be used is named by its cause (issue 17): an OAuth-protected server (the fixture
 * server, a separate process) without a login gets the login hint. The other causes are tested with
 * in-process listeners: test/tools/mcp/mcp-diagnosis.test.ts.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpServers } from "../../../src/tools/mcp/servers.ts";
import type { McpServerConfig } from "../../../src/tools/mcp/types.ts";
import { startOAuthFixture } from "../../support/mcp-fixture.ts";

setDefaultTimeout(60_000);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const http = (url: string): McpServerConfig => ({
  transport: "http",
  url,
  headers: {},
  trust: false,
  startupTimeoutMs: 20_000,
});

async function errorOf(config: McpServerConfig): Promise<string | undefined> {
  const servers = new McpServers({ s: config });
  cleanups.push(() => servers.closeAll());
  const [report] = await servers.report(new AbortController().signal);
  expect(report?.state).toBe("failed");
  return report?.error;
}

describe("why a server failed to start", () => {
  test("an OAuth server without a login: the login hint", async () => {
    const state = mkdtempSync(join(tmpdir(), "agent-mcp-diag-"));
    cleanups.push(() => rmSync(state, { recursive: true, force: true }));
    const previous = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = state;
    cleanups.push(() => {
      if (previous === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = previous;
    });
    const fixture = await startOAuthFixture();
    cleanups.push(fixture.stop);
    expect(await errorOf(http(fixture.url))).toBe(
      "failed to start: it needs authorization; run: agent mcp login s",
    );
  });
});
