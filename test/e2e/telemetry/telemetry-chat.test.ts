/**
 * `agent chat` on a real pseudo-terminal (tmux) with traces on: each message is a trace of its own, the
 * conversation ties them (gen_ai.conversation.id), and the spans reach the local OTLP receiver by the time
 * the chat has exited.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { type OtlpReceiver, startOtlpReceiver } from "../../support/otlp-receiver.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
let receiver: OtlpReceiver;

beforeEach(async () => {
  server = await startFakeLlmServer();
  receiver = startOtlpReceiver();
});
afterEach(async () => {
  await server.close();
  await receiver.close();
});

test(
  "two messages: two root spans in two traces of one conversation, no message text",
  async () => {
    server.enqueue({ text: "First answer." }, { text: "Second answer." });
    await withTerminal(
      ["chat", "first question words"],
      {
        server,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      },
      async (run) => {
        await run.waitForScreen(/First answer\./, "the first answer");
        await run.waitForScreen(/Enter send/, "the input box");
        run.send("second question words");
        await run.waitForScreen(/Second answer\./, "the second answer");
        await run.waitForScreen(/Enter send/, "the input box again");
        expect(await run.exitAfter("C-d")).toBe(0);
      },
    );
    const roots = receiver.spans().filter((s) => s.name === "invoke_agent root");
    expect(roots).toHaveLength(2);
    expect(new Set(roots.map((s) => s.traceId)).size).toBe(2);
    const conversation = roots[0]?.attributes["gen_ai.conversation.id"];
    expect(typeof conversation).toBe("string");
    expect(roots[1]?.attributes["gen_ai.conversation.id"]).toBe(conversation);
    const payload = receiver.requests.map((r) => r.body).join("\n");
    expect(payload).not.toContain("question words");
    expect(payload).not.toContain("Second answer");
  },
  TEST_TIMEOUT_MS,
);
