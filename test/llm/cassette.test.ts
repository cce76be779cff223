import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError, type ModelRequest, Redactor, type StreamEvent } from "../../src/kernel/index.ts";
import { readCassette, recordingStream, replayStream } from "../../src/llm/cassette.ts";
import { WORKSPACE_PLACEHOLDER } from "../../src/llm/cassette-format.ts";
import { scriptedProvider } from "../support/scripted-provider.ts";

let dir: string;
let workspace: string;
let file: string;

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "agent-cassette-")));
  workspace = join(dir, "my project");
  file = join(dir, "run.cassette.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function request(content: string, system = "You are root."): ModelRequest {
  return {
    model: { provider: "anthropic", providerName: "anthropic", id: "claude-haiku-5-5" },
    system,
    messages: [{ role: "user", content }],
    tools: [{ name: "read_file", description: "read", parameters: { type: "object" } }],
  };
}

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function script() {
  return scriptedProvider({
    queue: [
      { toolCalls: [{ name: "read_file", arguments: { path: `${workspace}/src/a.ts` } }] },
      { text: `Read ${workspace}/src/a.ts: it says hi.` },
    ],
  });
}

describe("record and replay", () => {
  test("replay gives back exactly the recorded events, in order", async () => {
    const recorder = recordingStream(script().stream, file, {
      workspaceRoot: workspace,
      redactor: new Redactor([]),
    });
    const recorded = [
      await collect(recorder(request("read a.ts"))),
      await collect(recorder(request("go on"))),
    ];

    const replay = replayStream(file, { workspaceRoot: workspace });
    const replayed = [await collect(replay(request("read a.ts"))), await collect(replay(request("go on")))];
    expect(replayed).toEqual(recorded);
    expect(recorded[0]!.at(-1)).toMatchObject({ type: "done", stopReason: "tool_calls" });
    expect(recorded[1]!.at(-1)).toMatchObject({ type: "done", stopReason: "end" });
  });

  test("one JSONL line per exchange, written as each completes, with a request summary", async () => {
    const recorder = recordingStream(script().stream, file, { workspaceRoot: workspace });
    await collect(recorder(request("read a.ts")));
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: "cassette", version: 1 });
    const exchange = JSON.parse(lines[1]!);
    expect(exchange).toMatchObject({
      type: "exchange",
      turn: 1,
      request: {
        model: { provider: "anthropic", id: "claude-haiku-5-5" },
        messageCount: 1,
        lastMessage: { role: "user", content: "read a.ts" },
        tools: ["read_file"],
        system: { chars: "You are root.".length },
      },
    });
    expect(exchange.request.system.sha256).toMatch(/^[0-9a-f]{16}$/);
  });

  test("workspace paths are stored as the placeholder and substituted back for another root", async () => {
    const recorder = recordingStream(script().stream, file, { workspaceRoot: workspace });
    await collect(recorder(request("read a.ts")));
    await collect(recorder(request("go on")));
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(workspace);
    expect(text).toContain(`${WORKSPACE_PLACEHOLDER}/src/a.ts`);
    expect(WORKSPACE_PLACEHOLDER).toBe(["$", "{WORKSPACE}"].join(""));

    const elsewhere = "/ci/checkout";
    const replay = replayStream(file, { workspaceRoot: elsewhere });
    const first = await collect(replay(request("read a.ts")));
    const end = first.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({ call: { arguments: { path: "/ci/checkout/src/a.ts" } } });
    const second = await collect(replay(request("go on")));
    expect(second.at(-1)).toMatchObject({
      message: { parts: [{ type: "text", text: "Read /ci/checkout/src/a.ts: it says hi." }] },
    });
  });

  test("secrets are redacted before they reach the file", async () => {
    const key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz";
    const leaky = scriptedProvider({ queue: [{ text: `your key is ${key}` }] });
    const recorder = recordingStream(leaky.stream, file, {
      workspaceRoot: workspace,
      redactor: Redactor.fromEnv({ ANTHROPIC_API_KEY: key }),
    });
    const events = await collect(recorder(request(`use ${key}`)));
    // The live stream is untouched; only the cassette is redacted.
    expect(JSON.stringify(events)).toContain(key);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(key);
    expect(text).toContain("[REDACTED]");
  });

  test("a run that asks for more turns than the cassette holds fails clearly", async () => {
    const recorder = recordingStream(script().stream, file, { workspaceRoot: workspace });
    await collect(recorder(request("read a.ts")));
    const replay = replayStream(file, { workspaceRoot: workspace });
    await collect(replay(request("read a.ts")));
    const over = await collect(replay(request("again")));
    expect(over).toHaveLength(1);
    const [event] = over;
    expect(event?.type).toBe("error");
    if (event?.type === "error") {
      expect(event.error.message).toContain("holds 1 turn and the run asked for turn 2");
      expect(event.error.message).toContain(file);
    }
  });

  test("an exchange the consumer abandons is still recorded", async () => {
    const recorder = recordingStream(script().stream, file, { workspaceRoot: workspace });
    for await (const _event of recorder(request("read a.ts"))) break;
    expect(readCassette(file, workspace)).toHaveLength(1);
  });

  test("a torn last line is tolerated; a missing file is a usage error", async () => {
    const recorder = recordingStream(script().stream, file, { workspaceRoot: workspace });
    await collect(recorder(request("read a.ts")));
    writeFileSync(file, `${readFileSync(file, "utf8")}{"type":"exchange","turn":2,"requ`);
    expect(readCassette(file, workspace)).toHaveLength(1);

    let error: unknown;
    try {
      replayStream(join(dir, "missing.jsonl"), { workspaceRoot: workspace });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).kind).toBe("usage");
    expect((error as AppError).message).toContain("missing.jsonl");
  });
});
