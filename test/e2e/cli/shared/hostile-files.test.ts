/**
 * A cloned repository ships hostile files where the CLI reads on its own: `.agent/agents/*.yaml`,
 * `.agent/config.yaml`, `.git/HEAD`. A FIFO, a device, a huge file, a symlink out of the workspace or a
 * YAML alias bomb is refused with a message naming the file: never read until memory runs out, never
 * blocking. A refused spec the run reaches (here `root.yaml`, named like the agent it would define) ends
 * the run with exit 3; one the run does not reach is a warning and the run goes on (issue 11, item 7).
 * (Each run is bounded only generously: the point is that it ends at all.)
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeSandbox, runAgent, type Sandbox } from "../../../cli/run-agent.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../../support/fake-llm-server.ts";

let server: FakeLlmServer;
let sandbox: Sandbox;
let ws: string;

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeSandbox();
  ws = join(sandbox.dir, "ws");
  mkdirSync(join(ws, ".agent", "agents"), { recursive: true });
});
afterEach(async () => {
  server.clear();
  await server.close();
  sandbox.cleanup();
});

/** Generous: a blocked read would hang forever; a working refusal ends in well under a second. */
const ENDS = 30_000;

function env(): Record<string, string> {
  return sandbox.env({ ANTHROPIC_API_KEY: "sk-ant-test-hostile-0001", ANTHROPIC_BASE_URL: server.url });
}

function run(args: string[]) {
  return runAgent(args, { env: env(), cwd: ws });
}

function mkfifo(path: string): void {
  const made = Bun.spawnSync(["mkfifo", path]);
  if (made.exitCode !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr.toString()}`);
}

/** A "billion laughs" document: nine levels of nine aliases each (9^9 leaves once expanded). */
function aliasBomb(tail: string): string {
  const names = "abcdefghi";
  const lines = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"];
  for (let i = 1; i < names.length; i++) {
    const alias = `*${names[i - 1]}`;
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(alias).join(", ")}]`);
  }
  return `${lines.join("\n")}\n${tail}`;
}

const SPEC = "name: root\ndescription: evil root\nsystem_prompt: obey\nmodel: fast\n";

describe("hostile project spec files", () => {
  test(
    "a FIFO spec: exit 3 naming the file, no model call",
    async () => {
      const file = join(ws, ".agent", "agents", "root.yaml");
      mkfifo(file);
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toContain("FIFO");
      expect(server.requests).toHaveLength(0);
    },
    ENDS,
  );

  test(
    "a FIFO spec the run does not reach: a warning naming the file, and the run goes on",
    async () => {
      const file = join(ws, ".agent", "agents", "evil.yaml");
      mkfifo(file);
      server.enqueue({ text: "Hello." });
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("Hello.\n");
      expect(result.stderr).toContain(`agent: warning: ${file}:1:`);
      expect(result.stderr).toContain("FIFO");
    },
    ENDS,
  );

  test(
    "a spec that is a symlink to /dev/zero: exit 3, refused as a device",
    async () => {
      const file = join(ws, ".agent", "agents", "zero.yaml");
      symlinkSync("/dev/zero", file);
      const result = await run(["agents", "list"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toMatch(/device|out of the workspace/);
    },
    ENDS,
  );

  test(
    "a spec above 1 MiB: exit 3 naming the file and the limit",
    async () => {
      const file = join(ws, ".agent", "agents", "root.yaml");
      writeFileSync(file, `${SPEC}tags: [${"x, ".repeat(600_000)}x]\n`);
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toContain("limit");
    },
    ENDS,
  );

  test(
    "a spec symlinked from outside the workspace: exit 3, refused",
    async () => {
      const outside = join(sandbox.dir, "outside.yaml");
      writeFileSync(outside, SPEC);
      const file = join(ws, ".agent", "agents", "root.yaml");
      symlinkSync(outside, file);
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toContain("out of the workspace");
    },
    ENDS,
  );

  test(
    "a YAML alias bomb in a spec: exit 3 naming the file",
    async () => {
      const file = join(ws, ".agent", "agents", "root.yaml");
      writeFileSync(file, aliasBomb(SPEC));
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toContain("alias");
      expect(result.stderr).not.toContain("internal error");
    },
    ENDS,
  );
});

describe("hostile project and user config", () => {
  test(
    "a FIFO .agent/config.yaml: exit 3 naming the file instead of blocking",
    async () => {
      const file = join(ws, ".agent", "config.yaml");
      mkfifo(file);
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toContain("FIFO");
    },
    ENDS,
  );

  test(
    "a .agent/config.yaml symlinked to /dev/zero: exit 3 instead of reading forever",
    async () => {
      const file = join(ws, ".agent", "config.yaml");
      symlinkSync("/dev/zero", file);
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
    },
    ENDS,
  );

  test(
    "a YAML alias bomb in the user's config.yaml: exit 3 naming the file",
    async () => {
      mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
      const file = join(sandbox.configDir, "agent", "config.yaml");
      writeFileSync(file, aliasBomb("defaults: { on_ask: deny }\n"));
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toContain("alias");
    },
    ENDS,
  );

  test(
    "a FIFO .git/HEAD does not block the run: the branch is left out and the run answers",
    async () => {
      mkdirSync(join(ws, ".git"));
      mkfifo(join(ws, ".git", "HEAD"));
      server.enqueue({ text: "hello" });
      const result = await run(["run", "hi"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("hello\n");
      expect(JSON.stringify(server.requests[0]?.body)).not.toContain("Git branch");
    },
    ENDS,
  );
});
