/**
 * test/fixtures/conformance/recorded-exchanges/openai-responses/: every recording served by the fake server in
 * Responses framing to the real `openai` SDK and our adapter, each giving the result its README documents.
 * The two-turn cassette also pins the request our adapter builds for turn 2: exactly the items the
 * recorded client sent back (reasoning id + the `.done` encrypted content, message with phase,
 * function_call, function_call_output).
 *
 * The recordings come from pydantic/pydantic-ai (MIT) and vercel/ai (Apache-2.0); see the corpus README for
 * provenance and licences. Nothing of them is copied here: they are read from the shared folder.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { AssistantMessage, Message } from "../../../src/kernel/conversation/messages.ts";
import type { ToolDefinition } from "../../../src/kernel/conversation/tools.ts";
import { withRetry } from "../../../src/llm/retry.ts";
import { PRIMITIVES } from "../../../src/tools/registry.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { cleanup, contextFor, tempDir } from "../../tools/helpers.ts";
import { collect, expectDone, expectError, makeRequest, streamFor, toolCalls } from "../harness.ts";
import { namedEventSse, readCassette, readChunks, readJson } from "../recorded-support.ts";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer();
});
afterAll(async () => {
  await server.close();
});

const responses = () => streamFor(server, "openai", { compatible: false });
const DIR = "openai-responses";

/** The recorded client wrote ASCII quotes into its cassette where the stream had typographic ones. */
const asciiQuotes = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value)
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/[\u201c\u201d]/g, '\\"'),
  );

describe("gpt-5-5-reasoning-function-call-2turn.vcr.yaml", () => {
  const [turn1, turn2] = readCassette(`${DIR}/gpt-5-5-reasoning-function-call-2turn.vcr.yaml`);
  if (!turn1 || !turn2) throw new Error("the cassette has two interactions");
  const recordedTool = (turn1.request.tools as { name: string; parameters: Record<string, unknown> }[])[0];
  const tool: ToolDefinition = {
    name: recordedTool?.name ?? "",
    description: "",
    parameters: recordedTool?.parameters ?? {},
  };
  const instructions = String(turn1.request.instructions);
  const user: Message = { role: "user", content: "What is the capital of PotatoLand?" };
  let first: AssistantMessage;

  test("turn 1: commentary text, one reasoning item (.done content), the function call, billed usage", async () => {
    server.enqueue({ rawSse: turn1.sse ?? "", protocol: "openai-responses" });
    const done = expectDone(
      await collect(
        responses()(makeRequest("openai", "gpt-5.5", [user], { system: instructions, tools: [tool] })),
      ),
    );
    first = done.message;
    expect(asciiQuotes(done.message.parts.filter((p) => p.type === "text").map((p) => p.text))).toEqual([
      `I'll check the capital lookup tool for "PotatoLand."`,
    ]);
    const text = done.message.parts.find((p) => p.type === "text");
    expect(text).toMatchObject({
      phase: "commentary",
      itemId: "msg_0fabc13af1ee0049006a691dfebdc881a1ae18d027c313d8ce",
    });
    const reasoning = done.message.parts.filter((p) => p.type === "reasoning");
    expect(reasoning).toHaveLength(1);
    expect(reasoning[0]?.signature).toStartWith("gAAAAABqaR3-pGgSyJcPT3y2");
    expect(toolCalls(done.message)).toEqual([
      expect.objectContaining({
        id: "call_LabG58Uhrq9kZvR52BYKjToD",
        itemId: "fc_0fabc13af1ee0049006a691dff0c1481a1b4a0eec7e3c753bb",
        name: "get_capital",
        arguments: { country: "PotatoLand" },
      }),
    ]);
    expect(done.stopReason).toBe("tool_calls");
    expect(done.usage).toMatchObject({
      inputTokens: 63,
      outputTokens: 69,
      reasoningTokens: 26,
      cacheReadTokens: 0,
    });
  });

  test("turn 2: the request carries back exactly the recorded items; the answer and usage", async () => {
    const before = server.requests.length;
    server.enqueue({ rawSse: turn2.sse ?? "", protocol: "openai-responses" });
    const history: Message[] = [
      user,
      first,
      {
        role: "tool",
        toolCallId: "call_LabG58Uhrq9kZvR52BYKjToD",
        toolName: "get_capital",
        content: "Potato City",
        isError: false,
      },
    ];
    const done = expectDone(
      await collect(
        responses()(makeRequest("openai", "gpt-5.5", history, { system: instructions, tools: [tool] })),
      ),
    );
    const sent = server.requests[before]?.body as Record<string, unknown>;
    expect(server.requests[before]?.path).toBe("/v1/responses");
    expect(asciiQuotes(sent.input)).toEqual(turn2.request.input);
    expect(sent).toMatchObject({
      instructions,
      include: ["reasoning.encrypted_content"],
      store: false,
      stream: true,
    });
    expect(sent.tools).toEqual([
      { type: "function", name: "get_capital", description: "", parameters: tool.parameters, strict: false },
    ]);
    expect(done.message.parts.filter((p) => p.type === "text").map((p) => p.text)).toEqual([
      "The capital of PotatoLand is **Potato City**.",
    ]);
    expect(done.message.parts[0]).toMatchObject({ phase: "final_answer" });
    expect(done.stopReason).toBe("end");
    expect(done.usage).toMatchObject({ inputTokens: 147, outputTokens: 16, reasoningTokens: 0 });
  });
});

describe("gpt-5-1-apply-patch-tool.chunks.txt", () => {
  test("one apply_patch call (create_file with its diff), completed, usage; it runs through our primitive", async () => {
    server.enqueue({
      rawSse: namedEventSse(readChunks(`${DIR}/gpt-5-1-apply-patch-tool.chunks.txt`)),
      protocol: "openai-responses",
    });
    const done = expectDone(
      await collect(responses()(makeRequest("openai", "gpt-5.1", [{ role: "user", content: "list" }]))),
    );
    const calls = toolCalls(done.message);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call).toMatchObject({
      id: "call_kA46f91ZwocQyMCKyyZqRyC5",
      name: "apply_patch",
      applyPatchOperation: { type: "create_file", path: "shopping-checklist.md" },
    });
    expect(call?.applyPatchOperation?.diff).toStartWith("+## Shopping Checklist\n");
    expect(done.rawStopReason).toBe("completed");
    expect(done.usage).toMatchObject({ inputTokens: 642, outputTokens: 67 });

    const root = await tempDir();
    try {
      const ctx = await contextFor(root);
      const result = await PRIMITIVES.apply_patch.run(call?.arguments ?? {}, ctx);
      expect(result.isError).toBe(false);
      expect(await readFile(path.join(root, "shopping-checklist.md"), "utf8")).toBe(
        "## Shopping Checklist\n\n- [ ] Milk\n- [ ] Bread\n- [ ] Eggs\n- [ ] Fresh fruit\n- [ ] Coffee\n",
      );
    } finally {
      await cleanup(root);
    }
  });
});

describe("gpt-5-nano-error-event.chunks.txt", () => {
  test("an error event inside the 200 stream is a quota error, not retried", async () => {
    const before = server.requests.length;
    server.enqueue({
      rawSse: namedEventSse(readChunks(`${DIR}/gpt-5-nano-error-event.chunks.txt`)),
      protocol: "openai-responses",
    });
    const stream = withRetry(responses(), { sleep: async () => {} });
    const error = expectError(
      await collect(stream(makeRequest("openai", "gpt-5-nano", [{ role: "user", content: "hi" }]))),
    );
    expect(error.error.kind).toBe("quota");
    expect(error.error.message).toContain("You exceeded your current quota");
    expect(server.requests.length - before).toBe(1);
  });
});

describe("gpt-6-luna-store-false-nonstream.json", () => {
  test("the response object, streamed as its items, normalizes to text ok, completed, 13 in / 5 out / 0 reasoning", async () => {
    const response = readJson(`${DIR}/gpt-6-luna-store-false-nonstream.json`);
    const output = response.output as { type: string }[];
    const events: Record<string, unknown>[] = [
      { type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } },
    ];
    output.forEach((item, output_index) => {
      events.push({ type: "response.output_item.added", output_index, item: { ...item, content: [] } });
      events.push({ type: "response.output_item.done", output_index, item });
    });
    events.push({ type: "response.completed", response });
    server.enqueue({ rawSse: namedEventSse(events), protocol: "openai-responses" });
    const done = expectDone(
      await collect(responses()(makeRequest("openai", "gpt-6-luna", [{ role: "user", content: "ok?" }]))),
    );
    expect(done.message.parts).toEqual([
      {
        type: "text",
        text: "ok",
        itemId: "msg_02751710c14000bf016ac7730d5b6087d2a1836fc259624b0e",
        phase: "final_answer",
      },
    ]);
    expect(done.stopReason).toBe("end");
    expect(done.rawStopReason).toBe("completed");
    expect(done.usage).toMatchObject({
      inputTokens: 13,
      outputTokens: 5,
      reasoningTokens: 0,
      cacheWriteTokens: 0,
    });
  });
});
