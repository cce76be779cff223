/**
 * fetch refuses loopback and private addresses unless an explicit allow rule names the host
 * (DESIGN, Tools and the workspace). `agent run` builds its fetch primitive from the session's rules.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseRule } from "../../src/policy/rules.ts";
import { fetchOriginsAllowedByRules, sessionToolsFor } from "../../src/sdk/session-tools.ts";
import { Workspace } from "../../src/tools/workspace.ts";

let server: ReturnType<typeof Bun.serve>;
let root: string;

beforeAll(async () => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("local docs") });
  root = await realpath(await mkdtemp(join(tmpdir(), "agent-run-tools-")));
});
afterAll(async () => {
  server.stop(true);
  await rm(root, { recursive: true, force: true });
});

describe("fetch hosts lifted by allow rules", () => {
  test("only allow rules for fetch with a literal host name a host", () => {
    const rules = [
      parseRule("fetch:http://localhost:8080/*", "allow", "user"),
      parseRule("fetch:http://[::1]/docs", "allow", "flag"),
      parseRule("fetch:http://10.0.0.5/*", "deny", "user"),
      parseRule("fetch:https://*.internal/*", "allow", "user"),
      parseRule("exec:curl http://192.168.1.1", "allow", "user"),
      parseRule("fetch", "allow", "user"),
    ];
    expect(fetchOriginsAllowedByRules(rules)).toEqual(["http://localhost:8080", "http://[::1]"]);
  });

  async function fetchWith(rules: ReturnType<typeof parseRule>[]) {
    const tools = sessionToolsFor(rules)(["fetch"], "claude");
    const fetchTool = tools.primitives.get("fetch");
    if (!fetchTool) throw new Error("fetch not offered");
    const args = { url: `http://127.0.0.1:${server.port}/` };
    const ctx = { workspace: await Workspace.open(root), signal: new AbortController().signal };
    return fetchTool.run(args, ctx);
  }

  test("a loopback URL is refused without a rule naming its host, and fetched with one", async () => {
    const refused = await fetchWith([]);
    expect(refused.isError).toBe(true);
    expect(refused.modelText).toMatch(/127\.0\.0\.1/);

    const allowed = await fetchWith([parseRule(`fetch:http://127.0.0.1:${server.port}/*`, "allow", "user")]);
    expect(allowed.isError).toBe(false);
    expect(allowed.modelText).toContain("local docs");
  });
});
