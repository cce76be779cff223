/**
 * The library is as safe as the CLI, through the public entry (`"agent"`): createSession({cwd}) applies
 * the sandbox from config (and refuses to start when it is required but unavailable), takes a `sandbox`
 * option, and announces a repository spec that overrides a built-in agent with the CLI's warning.
 * Before, a library session ran every exec unsandboxed, ignored `sandbox:` and said nothing.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentEvent, createSession, defineSpec } from "agent";
import { type FakeLlmServer, startFakeLlmServer } from "../support/fake-llm-server.ts";
import { makeLibraryDirs } from "../support/library-dirs.ts";
import { binWithOnly, outsideTmpDir } from "../tools/helpers.ts";

let server: FakeLlmServer;
let dir: string;
let outside: string;
let env: Record<string, string>;

beforeEach(async () => {
  server = await startFakeLlmServer();
  ({ dir, env } = makeLibraryDirs("agent-sdk-safety-", server, "sk-ant-test-sdk-000002"));
  // Outside /tmp: the sandbox's /tmp is private, so a write there would not prove anything.
  outside = outsideTmpDir("agent-sdk-outside-");
});
afterEach(async () => {
  server.clear();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const runner = defineSpec({
  name: "runner",
  description: "Runs commands",
  system_prompt: "Run what you are asked to.",
  model: "fast",
  capabilities: ["exec"],
});

function writeConfig(yaml: string): void {
  writeFileSync(join(dir, "config", "agent", "config.yaml"), yaml);
}

/** Runs one approved exec that writes outside the workspace; true when the file landed there. */
async function escapes(options: { sandbox?: { mode: "off" | "workspace-write" } }): Promise<boolean> {
  const target = join(outside, "escaped.txt");
  const session = await createSession({
    cwd: join(dir, "ws"),
    env,
    specs: [runner],
    approve: () => ({ kind: "once" }),
    ...options,
  });
  server.enqueue(
    { toolCalls: [{ name: "exec", args: { command: `echo pwned > '${target}'; true` } }] },
    { text: "Done." },
  );
  const result = await session.run("write it", { agent: "runner" });
  await session.close();
  expect(result.status).toBe("success");
  return existsSync(target);
}

test("config sandbox.mode workspace-write: an approved exec cannot write outside the workspace", async () => {
  writeConfig("sandbox:\n  mode: workspace-write\n");
  expect(await escapes({})).toBe(false);
});

test("the sandbox option lays over config: mode off is the caller's explicit choice", async () => {
  writeConfig("sandbox:\n  mode: workspace-write\n");
  expect(await escapes({ sandbox: { mode: "off" } })).toBe(true);
});

test("the sandbox option alone sandboxes exec", async () => {
  expect(await escapes({ sandbox: { mode: "workspace-write" } })).toBe(false);
});

test("sandbox.required: true with no bubblewrap refuses to start (config error naming the setting)", async () => {
  env.PATH = binWithOnly(join(dir, "bin"), ["bash", "sh"]);
  writeConfig("sandbox:\n  mode: workspace-write\n  required: true\n");
  const refused = await createSession({ cwd: join(dir, "ws"), env, specs: [runner] }).catch(
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(Error);
  expect((refused as Error & { kind?: string }).kind).toBe("config");
  expect((refused as Error).message).toContain("sandbox.required is true but the sandbox is unavailable");
});

test("a repository spec overriding the built-in root agent is announced with the CLI's warning", async () => {
  const agents = join(dir, "ws", ".agent", "agents");
  mkdirSync(agents, { recursive: true });
  const file = join(agents, "root.yaml");
  writeFileSync(
    file,
    [
      "name: root",
      "description: A friendly root agent",
      "model: fast",
      "capabilities: [read_file]",
      "system_prompt: Answer briefly.",
      "",
    ].join("\n"),
  );
  const seen: AgentEvent[] = [];
  const session = await createSession({ cwd: join(dir, "ws"), env, onEvent: (event) => seen.push(event) });
  server.enqueue({ text: "Hello." });
  await session.run("say hello");
  await session.close();
  const warning = seen.find(
    (event) => event.kind === "warning" && (event.data as { code?: string }).code === "project_override",
  );
  const message = String((warning?.data as { message?: string } | undefined)?.message);
  expect(message).toContain(`project spec ${file} overrides the bootstrap agent "root"`);
});
