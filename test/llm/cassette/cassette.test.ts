import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError, type ModelRequest, type StreamEvent } from "../../../src/kernel/index.ts";
import { Redactor } from "../../../src/kernel/text/redact.ts";
import { readCassette, recordingStream, replayStream } from "../../../src/llm/cassette/cassette.ts";
import { WORKSPACE_PLACEHOLDER } from "../../../src/llm/cassette/cassette-format.ts";
import { costOf, modelInfo } from "../../../src/llm/catalog.ts";
import { scriptedProvider } from "../../support/scripted-provider.ts";

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
    const replayed = [
      await collect(replay.stream(request("read a.ts"))),
      await collect(replay.stream(request("go on"))),
    ];
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
    const first = await collect(replay.stream(request("read a.ts")));
    const end = first.find((e) => e.type === "tool_call_end");
    expect(end).toMatchObject({ call: { arguments: { path: "/ci/checkout/src/a.ts" } } });
    const second = await collect(replay.stream(request("go on")));
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
    await collect(replay.stream(request("read a.ts")));
    const over = await collect(replay.stream(request("again")));
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

describe("strict replay", () => {
  async function recordTwo(): Promise<void> {
    const recorder = recordingStream(script().stream, file, { workspaceRoot: workspace });
    await collect(recorder(request("read a.ts")));
    await collect(recorder(request("go on")));
  }

  function withModel(req: ModelRequest, id: string): ModelRequest {
    return { ...req, model: { ...req.model, id } };
  }

  const cases: { what: string; first: () => ModelRequest; says: string }[] = [
    { what: "another goal", first: () => request("delete a.ts"), says: 'the task is "delete a.ts"' },
    {
      what: "another model",
      first: () => withModel(request("read a.ts"), "claude-sonnet-5-5"),
      says: "the model is anthropic:claude-sonnet-5-5, the cassette recorded anthropic:claude-haiku-5-5",
    },
    {
      what: "another tool set",
      first: () => ({ ...request("read a.ts"), tools: [] }),
      says: "the tools are [], the cassette recorded [read_file]",
    },
    {
      what: "another point in the conversation",
      first: () => ({
        ...request("read a.ts"),
        messages: [
          { role: "user", content: "x" },
          { role: "user", content: "read a.ts" },
        ],
      }),
      says: "holds 2 messages, the cassette recorded 1",
    },
  ];
  for (const c of cases) {
    test(`${c.what}: the stream ends with an error naming the first difference, kept as the mismatch`, async () => {
      await recordTwo();
      const replay = replayStream(file, { workspaceRoot: workspace });
      const events = await collect(replay.stream(c.first()));
      expect(events).toHaveLength(1);
      const [event] = events;
      expect(event?.type).toBe("error");
      expect(replay.misfit()).toContain("request 1 does not match the recording");
      expect(replay.misfit()).toContain(c.says);
      expect(replay.misfit()).toContain("--replay-loose");
      // Nothing later is served once a request missed.
      expect((await collect(replay.stream(request("go on")))).at(-1)?.type).toBe("error");
    });
  }

  test("--replay-loose serves the recording whatever was asked", async () => {
    await recordTwo();
    const replay = replayStream(file, { workspaceRoot: workspace, loose: true });
    const events = await collect(replay.stream(request("something else entirely")));
    expect(events.at(-1)).toMatchObject({ type: "done" });
    expect(replay.misfit()).toBeUndefined();
  });

  test("the recorded cost of what was served is reported apart, at catalog prices", async () => {
    await recordTwo();
    const replay = replayStream(file, { workspaceRoot: workspace });
    expect(replay.recordedCostUsd()).toBe(0);
    const events = await collect(replay.stream(request("read a.ts")));
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error("expected a done event");
    const expected = costOf(done.usage, modelInfo("claude-haiku-5-5", "anthropic"));
    expect(expected).toBeGreaterThan(0);
    expect(replay.recordedCostUsd()).toBeCloseTo(expected, 12);
  });
});
