/**
 * Project instructions: `agent run` and `agent agents show` in the test process (in-process.ts) against
 * the fake Anthropic server, in a workspace inside a repository (a `.git` directory), with the user's own
 * AGENTS.md in the sandbox's XDG config.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicEnv, type E2eSandbox, makeE2eSandbox, parseJsonLines } from "../../e2e/support.ts";
import { type FakeLlmServer, type FakeRequest, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { runInProcess } from "./in-process.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
let pkg: string;

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
  mkdirSync(join(sandbox.workspace, ".git"));
  pkg = join(sandbox.workspace, "pkg");
  mkdirSync(pkg);
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(join(sandbox.configDir, "agent", "AGENTS.md"), "USER: answer tersely\n");
  writeFileSync(join(sandbox.workspace, "AGENTS.md"), "REPO: run bun test before committing\n");
  writeFileSync(join(pkg, "CLAUDE.md"), "PKG: this package is ESM only\n");
});
afterEach(async () => {
  const pending = server.pending();
  await server.close();
  sandbox.cleanup();
  expect(pending).toBe(0);
});

function systemOf(request: FakeRequest | undefined): string {
  const system = (request?.body as { system?: { text: string }[] } | undefined)?.system ?? [];
  return system.map((block) => block.text).join("");
}

test("the request's system prompt holds every instructions file with its path, user first, nearest last; session_start lists them", async () => {
  server.enqueue({ text: "ok" });
  const result = await runInProcess(["run", "hi", "--output", "stream-json"], {
    env: anthropicEnv(sandbox, server),
    cwd: pkg,
  });
  expect(result.code).toBe(0);
  const system = systemOf(server.requests[0]);
  const files = [
    join(sandbox.configDir, "agent", "AGENTS.md"),
    join(sandbox.workspace, "AGENTS.md"),
    join(pkg, "CLAUDE.md"),
  ];
  const at = files.map((f) => system.indexOf(`<instructions path="${f}">`));
  expect(at[0]).toBeGreaterThan(0);
  expect(at[1]).toBeGreaterThan(at[0] as number);
  expect(at[2]).toBeGreaterThan(at[1] as number);
  expect(system).toContain("PKG: this package is ESM only");
  const start = parseJsonLines(result.stdout)[0];
  expect(start?.subtype).toBe("init");
  expect(start?.instructions).toEqual(files);
});

test("a spec with instructions: false gets none; agents show lists the files or false", async () => {
  mkdirSync(join(pkg, ".agent", "agents"), { recursive: true });
  writeFileSync(
    join(pkg, ".agent", "agents", "plain.yaml"),
    "name: plain\ndescription: no instructions\nsystem_prompt: be plain\nmodel: fast\ninstructions: false\n",
  );
  server.enqueue({ text: "ok" });
  const env = anthropicEnv(sandbox, server);
  const result = await runInProcess(["run", "--agent", "plain", "hi"], { env, cwd: pkg });
  expect(result.code).toBe(0);
  expect(systemOf(server.requests[0])).toBe("be plain");
  const plain = await runInProcess(["agents", "show", "plain"], { env, cwd: pkg });
  expect(plain.stdout).toContain("instructions: false");
  const root = await runInProcess(["agents", "show", "root", "--json"], { env, cwd: pkg });
  expect(root.code).toBe(0);
  expect((JSON.parse(root.stdout) as { instructions: string[] }).instructions).toEqual([
    join(sandbox.configDir, "agent", "AGENTS.md"),
    join(sandbox.workspace, "AGENTS.md"),
    join(pkg, "CLAUDE.md"),
  ]);
});

test("a refused instructions file (a FIFO) is a warning; the run goes on without it", async () => {
  Bun.spawnSync(["mkfifo", join(pkg, "AGENTS.md")]);
  server.enqueue({ text: "ok" });
  const result = await runInProcess(["run", "hi"], { env: anthropicEnv(sandbox, server), cwd: pkg });
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("ok\n");
  expect(result.stderr).toContain(`instructions file ${join(pkg, "AGENTS.md")} skipped: a FIFO`);
  const system = systemOf(server.requests[0]);
  expect(system).toContain("REPO: run bun test before committing");
  // The FIFO was refused, and CLAUDE.md beside it is not read in its place.
  expect(system).not.toContain("PKG: this package is ESM only");
});

test("an AGENTS.md over the size limit (2 MiB) contributes its head, cut at a line end, with a note (issue 21, item 11)", async () => {
  // 2 MiB of numbered lines: over both the 32 KiB instructions limit and the reader's 1 MiB file limit.
  const lines: string[] = [];
  for (let i = 0, size = 0; size < 2 * 1024 * 1024; i++) {
    const line = `RULE-${i}: keep functions small\n`;
    lines.push(line);
    size += line.length;
  }
  const big = join(pkg, "AGENTS.md");
  writeFileSync(big, lines.join(""));
  server.enqueue({ text: "ok" });
  const result = await runInProcess(["run", "hi"], { env: anthropicEnv(sandbox, server), cwd: pkg });
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: result.stderr });
  const system = systemOf(server.requests[0]);
  const block = system.slice(system.indexOf(`<instructions path="${big}">`));
  const body = block.slice(block.indexOf(">\n") + 2, block.indexOf("\n</instructions>"));
  // The head: from the first line, ending on a whole line.
  expect(body.startsWith("RULE-0: keep functions small\n")).toBe(true);
  expect(body.split("\n").at(-1)).toMatch(/^RULE-\d+: keep functions small$/);
  expect(Buffer.byteLength(body)).toBeGreaterThan(16 * 1024);
  expect(Buffer.byteLength(body)).toBeLessThanOrEqual(32 * 1024);
  // The note in the prompt and the warning on stderr say it was cut; nothing says it was skipped.
  expect(system).toContain(`${big}: cut to its first`);
  expect(system).toContain("of more than 32768 bytes");
  expect(result.stderr).toContain(`instructions file ${big}: cut to its first`);
  expect(result.stderr).not.toContain("skipped");
});
