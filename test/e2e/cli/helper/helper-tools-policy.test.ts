/**
 * `agent helper --tools` from the attacker's side: listing a tool approves its calls, but a
 * prompt-injected model still cannot get past a deny rule of the user's or the project's config (not
 * directly, not through an expansion), nor change git metadata (a hook would run on the user's next
 * commit) or the agent's own config, which ask even under a broad rule and a helper cannot ask.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runAgent, withFakeServerAndSandbox } from "../../../cli/run-agent.ts";

const fx = withFakeServerAndSandbox();

function userConfig(text: string): void {
  mkdirSync(join(fx.sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(join(fx.sandbox.configDir, "agent", "config.yaml"), text);
}

afterEach(() => {
  rmSync(join(fx.sandbox.configDir, "agent"), { recursive: true, force: true });
});

/** A fresh workspace holding `victim.txt`. */
function workspace(): string {
  const cwd = mkdtempSync(join(fx.sandbox.dir, "ws-"));
  writeFileSync(join(cwd, "victim.txt"), "keep me\n");
  return cwd;
}

async function helperJson(cwd: string, args: string[]) {
  const env = fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-policy-000001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
  });
  const result = await runAgent(["helper", "--json", ...args], { env, cwd });
  expect(result.stderr).not.toContain("internal error");
  const out = JSON.parse(result.stdout) as {
    answer: string;
    denials: { tool: string; target: string; decided_by: string; rule?: string }[];
  };
  return { ...result, out };
}

const exec = (command: string) => ({ toolCalls: [{ name: "exec", args: { command } }] });

test("a user deny rule refuses a listed exec, directly and through an expanded program name", async () => {
  userConfig('rules:\n  deny: ["exec:rm *"]\n');
  const cwd = workspace();
  fx.server.enqueue(exec("rm -f victim.txt"), exec("$(echo rm) -f victim.txt"), { text: "could not" });
  const { code, out } = await helperJson(cwd, ["--tools", "exec", "delete victim.txt"]);
  expect(code).toBe(0);
  expect(readFileSync(join(cwd, "victim.txt"), "utf8")).toBe("keep me\n");
  expect(out.denials).toMatchObject([
    { tool: "exec", target: "rm -f victim.txt", decided_by: "rule", rule: "exec:rm *" },
    { tool: "exec", target: "$(echo rm) -f victim.txt", decided_by: "rule", rule: "exec:rm *" },
  ]);
});

test("a project deny rule (./.agent/config.yaml) refuses a listed exec too", async () => {
  const cwd = workspace();
  mkdirSync(join(cwd, ".agent"));
  writeFileSync(join(cwd, ".agent", "config.yaml"), 'rules:\n  deny: ["exec:rm *"]\n');
  fx.server.enqueue(exec("rm -f victim.txt"), { text: "could not" });
  const { code, out } = await helperJson(cwd, ["--tools", "exec", "delete victim.txt"]);
  expect(code).toBe(0);
  expect(existsSync(join(cwd, "victim.txt"))).toBe(true);
  expect(out.denials).toMatchObject([{ decided_by: "rule", rule: "exec:rm *" }]);
});

test("a listed write_file cannot plant a git hook or the agent's config; an ordinary write still runs", async () => {
  const cwd = workspace();
  mkdirSync(join(cwd, ".git", "hooks"), { recursive: true });
  const write = (path: string) => ({
    name: "write_file",
    args: { path, content: "#!/bin/sh\ntouch pwned\n" },
  });
  fx.server.enqueue(
    { toolCalls: [write(".git/hooks/pre-commit"), write(".agent/agents/root.yaml"), write("notes.txt")] },
    { text: "wrote what I could" },
  );
  const { code, out } = await helperJson(cwd, ["--tools", "write_file", "set up hooks"]);
  expect(code).toBe(0);
  expect(existsSync(join(cwd, ".git", "hooks", "pre-commit"))).toBe(false);
  expect(existsSync(join(cwd, ".agent", "agents", "root.yaml"))).toBe(false);
  expect(existsSync(join(cwd, "notes.txt"))).toBe(true);
  expect(out.denials.map((d) => [d.target, d.decided_by])).toEqual([
    [".git/hooks/pre-commit", "whitelist"],
    [".agent/agents/root.yaml", "whitelist"],
  ]);
});

test("a user allow rule naming a local origin lets a listed fetch reach it, and only that port", async () => {
  const local = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("local secret page") });
  try {
    const port = Number(local.port);
    const origin = `http://127.0.0.1:${port}`;
    userConfig(`rules:\n  allow: ["fetch:${origin}/*"]\n`);
    const fetchCall = (url: string) => ({ toolCalls: [{ name: "fetch", args: { url } }] });
    fx.server.enqueue(fetchCall(`${origin}/page`), fetchCall(`http://127.0.0.1:${port + 1}/x`), {
      text: "fetched",
    });
    const before = fx.server.requests.length;
    const { code } = await helperJson(workspace(), ["--tools", "fetch", "read the local page"]);
    expect(code).toBe(0);
    const [, second, third] = fx.server.requests.slice(before).map((r) => JSON.stringify(r.body));
    expect(second).toContain("local secret page");
    expect(third).toContain("refusing to fetch 127.0.0.1");
  } finally {
    local.stop(true);
  }
});
