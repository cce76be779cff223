/** The fake Anthropic server refuses half an emoji in a request as the real API does (fake-rules-anthropic.ts). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { collect, expectDone, makeRequest, streamFor } from "../harness.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

test("a lone high surrogate in a message is refused with the API's 400 text; the whole emoji passes", async () => {
  const stream = streamFor(server, "anthropic");
  const half = "😀".slice(0, 1);
  const refused = await collect(
    stream(makeRequest("anthropic", "claude-haiku-4-5", [{ role: "user", content: `read this ${half}` }])),
  );
  expect(refused.terminal.type).toBe("error");
  const message = refused.terminal.type === "error" ? refused.terminal.error.message : "";
  expect(message).toContain("The request body is not valid JSON: no low surrogate in string: line 1 column");
  server.enqueue({ text: "ok" });
  expectDone(
    await collect(stream(makeRequest("anthropic", "claude-haiku-4-5", [{ role: "user", content: "😀" }]))),
  );
  expect(server.pending()).toBe(0);
});
