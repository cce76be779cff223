/**
 * A server that cannot be used is named by its cause (issue 17): the HTTP status and content type of
 * its answer, a refused connection, a hang past startup_timeout_ms, a command that does not exist,
 * authorization needed; never the generic "server NAME exited". The servers here are real HTTP
 * listeners on 127.0.0.1 answering as a misconfigured URL would (a web page, an error page, broken JSON).
 * An OAuth server (the fixture, a separate process): test/e2e/mcp/mcp-diagnosis-oauth.test.ts.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { McpServers } from "../../../src/tools/mcp/servers.ts";
import type { McpServerConfig } from "../../../src/tools/mcp/types.ts";

setDefaultTimeout(60_000);

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An HTTP server answering every request with `response()`. */
function answering(response: () => Response): string {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: response });
  cleanups.push(() => server.stop(true));
  return `http://127.0.0.1:${server.port}/mcp`;
}

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
  test("an HTTP error page: its status and that it is HTML", async () => {
    const url = answering(
      () => new Response("<html>oops</html>", { status: 500, headers: { "content-type": "text/html" } }),
    );
    expect(await errorOf(http(url))).toBe(
      `failed to start: HTTP 500 Internal Server Error from ${url} (an HTML page: is the URL the server's MCP endpoint?)`,
    );
  });

  test("a web page answered with 200: its content type", async () => {
    const url = answering(
      () => new Response("<html>welcome</html>", { headers: { "content-type": "text/html; charset=utf-8" } }),
    );
    expect(await errorOf(http(url))).toBe(
      `failed to start: ${url} answered text/html; charset=utf-8, not JSON or an event stream (an HTML page: is the URL the server's MCP endpoint?)`,
    );
  });

  test("JSON that is not JSON", async () => {
    const url = answering(
      () => new Response("{not json", { headers: { "content-type": "application/json" } }),
    );
    expect(await errorOf(http(url))).toBe(
      `failed to start: ${url} answered content that is not an MCP JSON-RPC message (content type application/json)`,
    );
  });

  test("a 404 without a page", async () => {
    const url = answering(
      () => new Response("no such thing", { status: 404, headers: { "content-type": "text/plain" } }),
    );
    expect(await errorOf(http(url))).toBe(`failed to start: HTTP 404 Not Found from ${url} (text/plain)`);
  });

  test("a closed port: connection refused", async () => {
    const url = answering(() => new Response("x"));
    await cleanups.pop()?.();
    expect(await errorOf(http(url))).toBe(
      `failed to start: connection refused at ${new URL(url).host} (is the server running?)`,
    );
  });

  test("a stdio command that does not exist: command not found", async () => {
    const config: McpServerConfig = {
      transport: "stdio",
      command: "/nonexistent/mcp-server",
      args: [],
      env: {},
      trust: false,
      startupTimeoutMs: 20_000,
    };
    expect(await errorOf(config)).toBe("failed to start: command not found: /nonexistent/mcp-server");
  });
});
