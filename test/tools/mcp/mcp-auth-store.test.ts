/** The OAuth record store (src/tools/mcp/auth/token-store.ts): private files under the state directory,
 * one per server URL, never read back for another URL. */
import { afterEach, describe, expect, test } from "bun:test";
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  deleteAuthRecord,
  loadAuthRecord,
  mcpAuthDir,
  mcpAuthFile,
  saveAuthRecord,
} from "../../../src/tools/mcp/auth/token-store.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function stateEnv(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "agent-mcp-auth-"));
  dirs.push(dir);
  return { XDG_STATE_HOME: dir };
}

const A = "https://a.example.com/mcp";
const B = "https://b.example.com/mcp";
const tokens = { access_token: "at-a-0123456789", token_type: "Bearer", refresh_token: "rt-a-0123456789" };

describe("OAuth records of MCP servers", () => {
  test("are written 0600 in a 0700 folder under $XDG_STATE_HOME/agent/mcp-auth", async () => {
    const env = stateEnv();
    await saveAuthRecord({ server_url: A, tokens }, env);
    expect(mcpAuthDir(env)).toBe(join(env.XDG_STATE_HOME as string, "agent", "mcp-auth"));
    expect(statSync(mcpAuthDir(env)).mode & 0o777).toBe(0o700);
    expect(statSync(mcpAuthFile(A, env)).mode & 0o777).toBe(0o600);
    expect(readdirSync(mcpAuthDir(env))).toHaveLength(1);
    expect((await loadAuthRecord(A, env)).tokens).toEqual(tokens);
    // The same URL however it is spelled.
    expect((await loadAuthRecord("HTTPS://A.example.com:443/mcp", env)).tokens).toEqual(tokens);
  });

  test("a record is never read for another server, even when its file is put in that server's place", async () => {
    const env = stateEnv();
    await saveAuthRecord({ server_url: A, tokens }, env);
    expect(await loadAuthRecord(B, env)).toEqual({ server_url: B });
    copyFileSync(mcpAuthFile(A, env), mcpAuthFile(B, env));
    expect(await loadAuthRecord(B, env)).toEqual({ server_url: B });
  });

  test("a symlink or a file that is not JSON reads as nothing stored", async () => {
    const env = stateEnv();
    await saveAuthRecord({ server_url: A, tokens }, env);
    symlinkSync(mcpAuthFile(A, env), mcpAuthFile(B, env));
    expect(await loadAuthRecord(B, env)).toEqual({ server_url: B });
    writeFileSync(mcpAuthFile(A, env), "not json");
    expect(await loadAuthRecord(A, env)).toEqual({ server_url: A });
  });

  test("logout deletes the record and says whether there was one", async () => {
    const env = stateEnv();
    await saveAuthRecord({ server_url: A, tokens }, env);
    expect(await deleteAuthRecord(A, env)).toBe(true);
    expect(readdirSync(mcpAuthDir(env))).toEqual([]);
    expect(await deleteAuthRecord(A, env)).toBe(false);
  });
});
