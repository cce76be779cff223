/**
 * The history contract of the library (docs/library.md "History is a value"): a conversation continued
 * with `history` sends exactly the messages the caller holds. Messages are immutable once a run has them:
 * an in-place edit throws at the caller, and an edited copy, or a new history, is what the next request
 * carries, even though the session's converters remember the old messages' text.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { type AgentEvent, createSession, defineSpec, type Message, type Session } from "agent";
import type { FakeLlmServer } from "../support/fake-llm-server.ts";
import { closeLibraryFixture, openLibraryFixture } from "../support/library-dirs.ts";

let server: FakeLlmServer;
let dir: string;
let env: Record<string, string>;

beforeEach(async () => {
  ({ server, dir, env } = await openLibraryFixture("agent-sdk-history-", "sk-ant-test-sdk-000002"));
});
afterEach(() => closeLibraryFixture({ server, dir }));

const SECRET = "hunter2-very-secret";

const talker = defineSpec({
  name: "talker",
  description: "Talks",
  system_prompt: "Answer briefly.",
  model: "fast",
  capabilities: ["read_file"],
});

/** A session whose root messages are collected as `agent chat` collects them (unredacted events). */
async function sessionWithHistory(): Promise<{ session: Session; history: Message[] }> {
  const history: Message[] = [];
  const session = await createSession({
    cwd: join(dir, "ws"),
    env,
    specs: [talker],
    instructions: false,
    skills: false,
    onUnredactedEvent: (event: AgentEvent) => {
      if (event.depth === 0 && event.kind === "message") history.push(event.data.message);
    },
  });
  return { session, history };
}

/** The text of the last request the fake server received. */
function lastBody(): string {
  return JSON.stringify(server.requests.at(-1)?.body);
}

/** The first run: a goal with a secret, a tool call reading a file, and an answer. */
async function firstRun(session: Session): Promise<void> {
  server.enqueue(
    { toolCalls: [{ name: "read_file", args: { path: "missing.txt", note: SECRET } }] },
    { text: `Noted ${SECRET}.` },
  );
  const result = await session.run(`Remember ${SECRET}`, { agent: "talker" });
  expect(result.status).toBe("success");
  expect(lastBody()).toContain(SECRET);
}

test("a history message edited in place throws at the caller, and the next request carries the history held", async () => {
  const { session, history } = await sessionWithHistory();
  await firstRun(session);
  const goal = history[0];
  if (goal?.role !== "user") throw new Error("the first message is the goal");
  expect(() => {
    goal.content = goal.content.replace(SECRET, "[scrubbed]");
  }).toThrow(TypeError);
  const answer = history.at(-1);
  if (answer?.role !== "assistant") throw new Error("the last message is the answer");
  expect(() => answer.parts.push({ type: "text", text: "more" })).toThrow(TypeError);
  const call = history[1];
  if (call?.role !== "assistant" || call.parts[0]?.type !== "tool_call") throw new Error("a tool call");
  const args = call.parts[0].arguments;
  expect(() => {
    args.note = "[scrubbed]";
  }).toThrow(TypeError);

  server.enqueue({ text: "Still here." });
  await session.run("And now?", { agent: "talker", history });
  // Nothing changed, so the request carries the messages as they are, secret included.
  expect(lastBody()).toContain(`Remember ${SECRET}`);
  await session.close();
});

test("an edited copy of a history message is what the next request carries", async () => {
  const { session, history } = await sessionWithHistory();
  await firstRun(session);
  const scrub = (text: string) => text.replaceAll(SECRET, "[scrubbed]");
  const scrubbed: Message[] = history.map((m): Message => {
    if (m.role === "user" || m.role === "tool") return { ...m, content: scrub(m.content) };
    return {
      ...m,
      parts: m.parts.map((p) =>
        p.type === "tool_call"
          ? { ...p, arguments: JSON.parse(scrub(JSON.stringify(p.arguments))) }
          : { ...p, text: scrub(p.text) },
      ),
    };
  });

  server.enqueue({ text: "Forgotten." });
  await session.run("What was it?", { agent: "talker", history: scrubbed });
  const body = lastBody();
  expect(body).not.toContain(SECRET);
  expect(body).toContain("Remember [scrubbed]");
  expect(body).toContain("Noted [scrubbed].");
  expect(body).toContain("What was it?");
  await session.close();
});

test("a new history replaces the old one entirely in the next request", async () => {
  const { session } = await sessionWithHistory();
  await firstRun(session);
  const fresh: Message[] = [
    { role: "user", content: "Earlier question" },
    { role: "assistant", parts: [{ type: "text", text: "Earlier answer" }] },
  ];

  server.enqueue({ text: "New." });
  await session.run("Next question", { agent: "talker", history: fresh });
  const body = server.requests.at(-1)?.body as { messages: unknown };
  expect(JSON.stringify(body)).not.toContain(SECRET);
  expect(body.messages).toEqual([
    { role: "user", content: [{ type: "text", text: "Earlier question" }] },
    { role: "assistant", content: [{ type: "text", text: "Earlier answer" }] },
    {
      role: "user",
      content: [{ type: "text", text: "New goal: Next question", cache_control: { type: "ephemeral" } }],
    },
  ]);
  await session.close();
});

test("a message the caller passes in is frozen by the run, nested parts included", async () => {
  const { session } = await sessionWithHistory();
  const mine: Message[] = [
    { role: "user", content: "Earlier question" },
    {
      role: "assistant",
      parts: [{ type: "tool_call", id: "call_1", name: "read_file", arguments: { path: "a.txt" } }],
    },
    { role: "tool", toolCallId: "call_1", toolName: "read_file", content: "text", isError: false },
  ];
  server.enqueue({ text: "Done." });
  await session.run("Go on", { agent: "talker", history: mine });
  const [user, assistant, tool] = mine;
  expect(Object.isFrozen(user)).toBe(true);
  expect(Object.isFrozen(tool)).toBe(true);
  if (assistant?.role !== "assistant" || assistant.parts[0]?.type !== "tool_call") throw new Error("shape");
  expect(Object.isFrozen(assistant.parts)).toBe(true);
  expect(Object.isFrozen(assistant.parts[0].arguments)).toBe(true);
  // The array is the caller's own: it may grow or be replaced.
  expect(Object.isFrozen(mine)).toBe(false);
  await session.close();
});
