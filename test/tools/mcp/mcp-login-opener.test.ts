/**
 * `agent mcp login`'s browser step against the OAuth fixture (the MCP SDK's own authorization server),
 * with a fake `xdg-open` first on the login's PATH that records the arguments it is given: the real
 * opener code runs, only the program at the end of it is ours. A server whose metadata names an
 * `smb://` or `file:` authorization page gets a clear refusal and nothing is started; a real page is
 * handed over as exactly one argument, and the person has the login's window (not startup_timeout_ms) to
 * come back.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withLogin } from "../../../src/tools/mcp/auth/login.ts";
import type { McpServerConfig } from "../../../src/tools/mcp/types.ts";
import { startOAuthFixture } from "../../support/mcp-fixture.ts";

setDefaultTimeout(60_000);

let dir: string;
let openerLog: string;
let env: Record<string, string>;
const stops: (() => void)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-login-opener-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  openerLog = join(dir, "opener.log");
  // One line with the argument count, then one line per argument.
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$#" "$@" >> "$OPENER_LOG"\n`);
  chmodSync(join(bin, "xdg-open"), 0o755);
  env = {
    PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    XDG_STATE_HOME: join(dir, "state"),
    OPENER_LOG: openerLog,
  };
});
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  rmSync(dir, { recursive: true, force: true });
});

async function server(
  fixtureEnv: Record<string, string> = {},
): Promise<Extract<McpServerConfig, { transport: "http" }>> {
  const started = await startOAuthFixture(fixtureEnv);
  stops.push(started.stop);
  return { transport: "http", url: started.url, headers: {}, trust: false, startupTimeoutMs: 500 } as Extract<
    McpServerConfig,
    { transport: "http" }
  >;
}

async function waitForFile(path: string): Promise<string> {
  while (!existsSync(path) || !readFileSync(path, "utf8").endsWith("\n")) await Bun.sleep(20);
  return readFileSync(path, "utf8");
}

describe("the authorization page a login opens", () => {
  for (const hostile of ["smb://attacker.example/share/consent", "file:///etc/passwd"]) {
    test(`metadata naming ${hostile.split(":")[0]}: is refused with a clear error, and no opener is started`, async () => {
      const config = await server({ FIXTURE_AUTHORIZATION_ENDPOINT: hostile });
      const printed: string[] = [];
      const login = withLogin(
        "tracker",
        config,
        { userAgent: "browser", print: (l) => printed.push(l), signal: new AbortController().signal, env },
        async (c) => c.tools.length,
      );
      await expect(login).rejects.toThrow(
        /authorization URL (smb|file):\/\/.* is not https: refusing to open it/,
      );
      expect(existsSync(openerLog)).toBe(false);
      expect(printed.join("\n")).not.toContain(hostile);
    });
  }

  test("a real page is one argument to the opener, and the person may take longer than startup_timeout_ms", async () => {
    const config = await server();
    const printed: string[] = [];
    const login = withLogin(
      "tracker",
      config,
      { userAgent: "browser", print: (l) => printed.push(l), signal: new AbortController().signal, env },
      async (c) => c.tools.map((t) => t.name),
    );
    const [count, url] = (await waitForFile(openerLog)).trimEnd().split("\n");
    expect(count).toBe("1");
    expect(printed).toContain(`  ${url}`);
    expect(new URL(url ?? "").searchParams.get("state")).toBeTruthy();
    // The person reads the consent page for longer than the server's startup_timeout_ms (500 ms) before
    // approving: the browser then follows the authorization server's redirect back to the login.
    await Bun.sleep(3 * (config.startupTimeoutMs ?? 0));
    await fetch(url ?? "");
    expect(await login).toEqual(["echo"]);
  });
});
