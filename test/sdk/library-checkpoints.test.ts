/**
 * Checkpoints through the library (docs/library.md "Checkpoints"): `createSession({ checkpoints: true })`
 * records what a sub-agent's write changed as a `checkpoint` event with blob ids the store holds; without
 * the option no event comes and no store is made.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type AgentEvent, createSession, defineSpec } from "agent";
import type { FakeLlmServer } from "../support/fake-llm-server.ts";
import { closeLibraryFixture, openLibraryFixture } from "../support/library-dirs.ts";

let server: FakeLlmServer;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  ({ server, dir, env } = await openLibraryFixture("agent-sdk-cp-", "sk-ant-test-sdk-000002"));
});
afterEach(() => closeLibraryFixture({ server, dir }));

const specs = [
  defineSpec({
    name: "lead",
    description: "Delegates",
    system_prompt: "Delegate.",
    model: "fast",
    capabilities: ["scribe"],
  }),
  defineSpec({
    name: "scribe",
    description: "Writes files",
    system_prompt: "Write.",
    model: "fast",
    capabilities: ["write_file"],
  }),
];

function script(): void {
  server.enqueue(
    { toolCalls: [{ name: "scribe", args: { goal: "write e.txt" } }] },
    { toolCalls: [{ name: "write_file", args: { path: "e.txt", content: "e\n" } }] },
    { text: "wrote it" },
    { text: "done" },
  );
}

test("a sub-agent's write is a checkpoint event of the session; the store is outside the workspace", async () => {
  const seen: AgentEvent[] = [];
  const session = await createSession({
    cwd: join(dir, "ws"),
    env,
    specs,
    checkpoints: true,
    approve: () => ({ kind: "once" }),
    onEvent: (event) => seen.push(event),
  });
  script();
  const result = await session.run("go", { agent: "lead" });
  expect(result.status).toBe("success");
  const checkpoints = seen.filter((e) => e.kind === "checkpoint");
  expect(checkpoints.map((e) => [e.name, e.depth, e.kind === "checkpoint" && e.data.turn])).toEqual([
    ["scribe", 1, 1],
  ]);
  const data = checkpoints[0]?.kind === "checkpoint" ? checkpoints[0].data : undefined;
  expect(data?.files).toEqual([
    { path: "e.txt", before: null, after: { blob: expect.stringMatching(/^[0-9a-f]{40}$/), mode: "100644" } },
  ]);
  expect(existsSync(join(dir, "ws", ".git"))).toBe(false);
  expect(existsSync(join(env.XDG_STATE_HOME ?? "", "agent", "checkpoints"))).toBe(true);
});

test("without the option a session records no checkpoint", async () => {
  const seen: AgentEvent[] = [];
  const session = await createSession({
    cwd: join(dir, "ws"),
    env,
    specs,
    approve: () => ({ kind: "once" }),
    onEvent: (event) => seen.push(event),
  });
  script();
  await session.run("go", { agent: "lead" });
  expect(seen.some((e) => e.kind === "checkpoint")).toBe(false);
  expect(existsSync(join(env.XDG_STATE_HOME ?? "", "agent", "checkpoints"))).toBe(false);
});
