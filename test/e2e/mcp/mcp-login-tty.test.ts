/**
 * `agent mcp login` on a real terminal (tmux, see tmux.ts): it prints the authorization URL and waits
 * for the redirect to its 127.0.0.1 listener. Here the person's browser is a plain HTTP client that
 * opens the URL read off the screen and follows the authorization server's redirects (the OAuth
 * fixture approves at once); the login then finishes and says so.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { startOAuthFixture } from "../../support/mcp-fixture.ts";
import { startTerminal, TEST_TIMEOUT_MS, tmux } from "../tmux.ts";

let llm: FakeLlmServer;
const stops: (() => void)[] = [];
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await llm.close();
});

test(
  "login --no-browser prints the URL, waits, and finishes when the browser comes back",
  async () => {
    const secure = await startOAuthFixture();
    stops.push(secure.stop);
    const run = startTerminal(["mcp", "login", "secure", "--no-browser"], {
      server: llm,
      prepare: (sandbox) => {
        mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
        writeFileSync(
          join(sandbox.configDir, "agent", "config.yaml"),
          `mcp_servers:\n  secure:\n    url: ${secure.url}\n    startup_timeout_ms: 30000\n`,
        );
      },
    });
    stops.push(run.close);
    await run.waitForScreen(
      /Waiting for the authorization to come back to http:\/\/127\.0\.0\.1:\d+\/callback/,
      "the login to wait",
    );
    // -J joins the lines the terminal wrapped: the URL is longer than the pane is wide.
    const screen = tmux("capture-pane", "-p", "-J", "-t", run.name);
    expect(screen).toContain("Open this URL to authorize:");
    const url = /(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)/.exec(screen)?.[1];
    expect(url).toBeDefined();
    const authorizationUrl = new URL(url as string);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("redirect_uri")).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
    );
    // The browser: follows the redirect back to the login's listener.
    const landed = await fetch(authorizationUrl);
    expect(await landed.text()).toContain("Authorized. You can close this page");
    expect(await run.exitStatus()).toBe(0);
    expect(run.screen()).toContain("logged in to secure (1 tools)");
    expect(readdirSync(join(run.sandbox.stateDir, "agent", "mcp-auth"))).toHaveLength(1);
  },
  TEST_TIMEOUT_MS,
);
