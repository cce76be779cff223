/**
 * The fake server's routed queues (`enqueueFor`): a request whose system prompt contains a queue's text
 * is answered from that queue whatever order the requests arrive in, in each protocol's own place for
 * the system prompt; other requests, and a routed agent whose queue is used up, take from the main queue.
 * Raw requests shaped as the adapters send them.
 */
import { expect, test } from "bun:test";
import { fakeServerPerFile } from "../../support/fake-server-per-file.ts";

const server = await fakeServerPerFile();

/** Posts one request whose system prompt is `system` in `protocol`'s place; returns the streamed text. */
async function ask(protocol: "anthropic" | "openai" | "openai-responses" | "gemini", system: string) {
  const user = { role: "user", content: "hi" };
  const request =
    protocol === "anthropic"
      ? {
          path: "/v1/messages",
          body: {
            model: "claude-sonnet-4-5",
            max_tokens: 100,
            system: [{ type: "text", text: system }],
            messages: [user],
          },
        }
      : protocol === "openai"
        ? {
            path: "/v1/chat/completions",
            body: { model: "gpt-4o", messages: [{ role: "system", content: system }, user] },
          }
        : protocol === "openai-responses"
          ? { path: "/v1/responses", body: { model: "gpt-4o", instructions: system, input: "hi" } }
          : {
              path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
              body: {
                systemInstruction: { parts: [{ text: system }] },
                contents: [{ role: "user", parts: [{ text: "hi" }] }],
              },
            };
  const response = await fetch(`${server.url}${request.path}?alt=sse`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k", authorization: "Bearer k" },
    body: JSON.stringify({ stream: true, ...request.body }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text;
}

test("requests are answered from the queue their system prompt matches, in any order", async () => {
  server.enqueue({ text: ["main-one"] }, { text: ["main-two"] });
  server.enqueueFor("You are editor-a.", { text: ["a-first"] }, { text: ["a-second"] });
  server.enqueueFor("You are editor-b.", { text: ["b-first"] });
  expect(server.pending()).toBe(5);
  // editor-b asks first, then the root, then editor-a twice: each gets its own turns.
  expect(await ask("anthropic", "Intro. You are editor-b. Rules.")).toContain("b-first");
  expect(await ask("anthropic", "You are the root.")).toContain("main-one");
  expect(await ask("anthropic", "You are editor-a.")).toContain("a-first");
  expect(await ask("anthropic", "You are editor-a.")).toContain("a-second");
  // editor-b's queue is used up: it takes from the main queue.
  expect(await ask("anthropic", "You are editor-b.")).toContain("main-two");
  expect(server.pending()).toBe(0);
});

test("the system prompt is found where each protocol carries it", async () => {
  for (const protocol of ["anthropic", "openai", "openai-responses", "gemini"] as const) {
    server.enqueue({ text: ["from-main"] });
    server.enqueueFor("agent: child", { text: [`routed-${protocol}`] });
    expect(await ask(protocol, "root agent")).toContain("from-main");
    expect(await ask(protocol, "the agent: child prompt")).toContain(`routed-${protocol}`);
  }
  expect(server.pending()).toBe(0);
});

test("clear drops the routed turns too, and an empty match is refused", () => {
  server.enqueueFor("someone", { text: ["never served"] });
  expect(server.pending()).toBe(1);
  server.clear();
  expect(server.pending()).toBe(0);
  expect(() => server.enqueueFor("", { text: ["x"] })).toThrow("empty match");
});
