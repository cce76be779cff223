/**
 * MCP at run time end to end: bin/agent (no TTY) against the fake LLM server, with the real
 * `@modelcontextprotocol/server-everything` from npm over stdio (through a logging tap,
 * test/support/mcp-stdio-tap.ts) and over streamable HTTP: a tool with progress outlives a shorter
 * tool_timeout_ms and completes (and without progress the same timeout cuts it); an
 * image reaches the model's next request as an image on each wire protocol; Ctrl-C and --timeout send
 * exactly one notifications/cancelled; no server is left running. Also a 1 MB tool description (the
 * SDK-built fixture server) is capped with a warning.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { FakeProtocol, FakeRequest } from "../../support/fake-llm-server.ts";
import { type FakeLlmServer, startFakeLlmServer } from "../../support/fake-llm-server.ts";
import { EVERYTHING, STDIO_TAP, sentMessages } from "../../support/mcp-everything.ts";
import { FIXTURE_SERVER } from "../../support/mcp-fixture.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  makeE2eSandbox,
  parseJsonLines,
  processRunning,
  runAgentIn,
  spawnAgent,
  waitFor,
} from "../support.ts";

// The server's start under load, and the cancellation tests' wait for a call. A bound for "it ended at
// all", never a timing assertion.
setDefaultTimeout(180_000);

let server: FakeLlmServer;
let sandbox: E2eSandbox;
let marker: string;
const stops: (() => void)[] = [];

beforeEach(async () => {
  server = await startFakeLlmServer();
  sandbox = makeE2eSandbox();
  // An extra argument server-everything ignores (it reads only the first): finds its process later.
  marker = `everything-${crypto.randomUUID()}`;
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  const pending = server.pending();
  await server.close();
  // server-everything must not be left running, whatever the test did.
  const gone = await waitForGone(marker);
  sandbox.cleanup();
  expect(pending).toBe(0);
  expect(gone).toBe(true);
});

async function waitForGone(text: string): Promise<boolean> {
  try {
    await waitFor(() => !processRunning(text), `no process matching ${text}`);
    return true;
  } catch {
    return false;
  }
}

const NODE = Bun.which("node") ?? "node";
const LOG = () => join(sandbox.dir, "mcp-sent.jsonl");

/** server-everything over stdio, through the tap that logs what the client sends. */
function stdioYaml(extra = ""): string {
  const args = [STDIO_TAP, LOG(), NODE, EVERYTHING, "stdio", marker];
  return (
    `  everything:\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify(args)}\n` +
    `    startup_timeout_ms: 60000\n${extra}`
  );
}

function writeConfig(serversYaml: string, extra = ""): void {
  const dir = join(sandbox.configDir, "agent");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.yaml"), `${extra}mcp_servers:\n${serversYaml}`);
}

function writeSpec(caps: string[]): void {
  const dir = join(sandbox.configDir, "agent", "agents");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "mcp-user.yaml"),
    `name: mcp-user\ndescription: uses MCP tools\nsystem_prompt: Use the tools.\ncapabilities: ${JSON.stringify(caps)}\n`,
  );
}

/** A free port on 127.0.0.1 for the HTTP server. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** server-everything over streamable HTTP (`node dist/index.js streamableHttp` with PORT=). */
async function startEverythingHttp(): Promise<string> {
  const port = await freePort();
  const proc = Bun.spawn([NODE, EVERYTHING, "streamableHttp", marker], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PORT: String(port) },
    stdout: "pipe",
    stderr: "pipe",
  });
  stops.push(() => proc.kill("SIGKILL"));
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitFor(() => {
    const probe = Bun.spawnSync([
      "node",
      "-e",
      `require('net').connect(${port},'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))`,
    ]);
    return probe.exitCode === 0;
  }, "server-everything to listen");
  return url;
}

const PROGRESS_RUN = ["--agent", "mcp-user", "--allow", "mcp:everything/trigger-long-running-operation"];

// Progress restarts the tool timer (docs/mcp.md, "Long-running tools"): the tool runs 3 s in six half-second
// steps, past a 2 s tool_timeout_ms that each progress notification starts again. Without progress the
// same 2 s cuts a call (the last test here), so the run that completes proves the restart, not a long bound.
const TOOL_TIMEOUT = "    tool_timeout_ms: 2000\n";

describe("a tool with progress outlives tool_timeout_ms and completes", () => {
  test.each(["stdio", "http"])("over %s", async (transport) => {
    writeConfig(
      transport === "stdio"
        ? stdioYaml(TOOL_TIMEOUT)
        : `  everything:\n    url: ${await startEverythingHttp()}\n${TOOL_TIMEOUT}`,
    );
    writeSpec(["mcp:everything/trigger-long-running-operation"]);
    server.enqueue(
      {
        toolCalls: [
          { name: "mcp__everything__trigger-long-running-operation", args: { duration: 3, steps: 6 } },
        ],
      },
      { text: "It finished." },
    );
    const first = server.requests.length;
    const result = await runAgentIn(
      sandbox,
      ["run", "run it", ...PROGRESS_RUN, "-o", "stream-json"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    const lines = parseJsonLines(result.stdout);
    const progress = lines.filter((l) => l.type === "tool_progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]).toMatchObject({ tool: "mcp__everything__trigger-long-running-operation", total: 6 });
    const next = JSON.stringify(server.requests[first + 1]?.body);
    expect(next).toContain("Long running operation completed. Duration: 3 seconds, Steps: 6.");
    expect(lines.at(-1)).toMatchObject({ type: "result", status: "success" });
  });

  test("without progress, the same tool_timeout_ms cuts the call and the model reads the timeout", async () => {
    writeConfig(stdioYaml(TOOL_TIMEOUT));
    writeSpec(["mcp:everything/trigger-long-running-operation"]);
    // One 3 s step: its only progress notification would come with the result, after the 2 s timeout.
    server.enqueue(
      {
        toolCalls: [
          { name: "mcp__everything__trigger-long-running-operation", args: { duration: 3, steps: 1 } },
        ],
      },
      { text: "It timed out." },
    );
    const first = server.requests.length;
    const result = await runAgentIn(
      sandbox,
      ["run", "run it", ...PROGRESS_RUN, "-o", "stream-json"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    const next = JSON.stringify(server.requests[first + 1]?.body);
    expect(next).toContain("Request timed out");
    expect(next).not.toContain("Long running operation completed");
  });
});

/** Where each wire protocol carries the image of a tool result, read from the request after the call. */
const IMAGE_WIRES: {
  name: string;
  protocol: FakeProtocol;
  env: () => Record<string, string>;
  providerYaml?: string;
  image: (request: FakeRequest) => unknown;
}[] = [
  {
    name: "Anthropic Messages",
    protocol: "anthropic",
    env: () => anthropicEnv(sandbox, server),
    image: (r) => {
      const messages = (r.body as { messages: { content: { type: string; content?: unknown }[] }[] })
        .messages;
      const result = messages
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .find((b) => b.type === "tool_result");
      return ((result?.content ?? []) as { type: string; source?: { media_type: string } }[]).find(
        (b) => b.type === "image",
      )?.source?.media_type;
    },
  },
  {
    name: "OpenAI Responses",
    protocol: "openai-responses",
    env: () =>
      sandbox.env({ OPENAI_API_KEY: "sk-test-mcp-image-00001", OPENAI_BASE_URL: server.openaiBaseUrl }),
    image: (r) => {
      const input = (r.body as { input: { type?: string; output?: unknown }[] }).input;
      const output = input.find((i) => i.type === "function_call_output")?.output as {
        type: string;
        image_url?: string;
      }[];
      return output
        .find((p) => p.type === "input_image")
        ?.image_url?.slice(0, "data:image/png;base64,".length);
    },
  },
  {
    name: "Gemini",
    protocol: "gemini",
    env: () =>
      sandbox.env({
        GEMINI_API_KEY: "gemini-test-mcp-image-01",
        GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl,
      }),
    image: (r) => {
      const contents = (
        r.body as {
          contents: { parts: { functionResponse?: { parts?: { inlineData?: { mimeType: string } }[] } }[] }[];
        }
      ).contents;
      const response = contents.flatMap((c) => c.parts).find((p) => p.functionResponse)?.functionResponse;
      return response?.parts?.[0]?.inlineData?.mimeType;
    },
  },
  {
    name: "Chat Completions (an OpenAI-compatible server)",
    protocol: "openai",
    env: () => sandbox.env(),
    providerYaml:
      "providers:\n  ollama:\n    kind: openai-compatible\n    base_url: BASE\n" +
      "models:\n  fast: ollama:llama3.2\n  good: ollama:llama3.2\n  best: ollama:llama3.2\n",
    image: (r) => {
      const messages = (r.body as { messages: { role: string; content: unknown }[] }).messages;
      const last = messages.at(-1);
      if (last?.role !== "user" || !Array.isArray(last.content)) return undefined;
      const part = (last.content as { type: string; image_url?: { url: string } }[]).find(
        (p) => p.type === "image_url",
      );
      return part?.image_url?.url.slice(0, "data:image/png;base64,".length);
    },
  },
];

describe("an image reaches the model's next request as an image", () => {
  test.each(IMAGE_WIRES)("over $name", async (wire) => {
    writeConfig(stdioYaml(), (wire.providerYaml ?? "").replace("BASE", server.openaiBaseUrl));
    writeSpec(["mcp:everything/get-tiny-image"]);
    const p = wire.protocol;
    server.enqueue(
      { protocol: p, toolCalls: [{ name: "mcp__everything__get-tiny-image", args: {} }] },
      { protocol: p, text: "A logo." },
    );
    const first = server.requests.length;
    const result = await runAgentIn(
      sandbox,
      ["run", "show me", "--agent", "mcp-user", "--allow", "mcp:everything/get-tiny-image"],
      wire.env(),
    );
    expect(result.code).toBe(0);
    const next = server.requests[first + 1];
    expect(next?.protocol).toBe(p);
    const found = wire.image(next as FakeRequest);
    expect(found === "image/png" || found === "data:image/png;base64,").toBe(true);
  });
});

describe("cancellation", () => {
  test.each([
    { name: "Ctrl-C", args: [] as string[], signal: "SIGINT" as const, code: 130 },
    { name: "--timeout", args: ["--timeout", "20"], signal: undefined, code: 5 },
  ])(
    "$name during a call sends exactly one notifications/cancelled, for that call",
    async ({ args, signal, code }) => {
      writeConfig(stdioYaml());
      writeSpec(["mcp:everything/trigger-long-running-operation", "mcp:everything/echo"]);
      server.enqueue(
        { toolCalls: [{ name: "mcp__everything__echo", args: { message: "first" } }] },
        {
          toolCalls: [
            { name: "mcp__everything__trigger-long-running-operation", args: { duration: 600, steps: 600 } },
          ],
        },
      );
      const running = spawnAgent(["run", "go", ...PROGRESS_RUN, "--allow", "mcp:everything/echo", ...args], {
        env: anthropicEnv(sandbox, server),
        cwd: sandbox.workspace,
      });
      const call = () =>
        sentMessages(LOG()).find(
          (m) => m.method === "tools/call" && m.params?.name === "trigger-long-running-operation",
        );
      await waitFor(() => call() !== undefined, "the long-running call to reach the server", 60_000);
      if (signal) running.proc.kill(signal);
      const result = await running.done;
      expect(result.code).toBe(code);
      expect(await waitForGone(marker)).toBe(true);
      const sent = sentMessages(LOG());
      const cancelled = sent.filter((m) => m.method === "notifications/cancelled");
      expect(cancelled).toHaveLength(1);
      expect(cancelled[0]?.params?.requestId).toBe(call()?.id);
    },
  );
});

test("a 1 MB tool description is capped, with a warning naming server and tool", async () => {
  writeConfig(
    `  fixture:\n    command: ${JSON.stringify(process.execPath)}\n    args: ${JSON.stringify([FIXTURE_SERVER])}\n` +
      `    env: {FIXTURE_DESCRIPTION_CHARS: "1048576"}\n    startup_timeout_ms: 60000\n`,
  );
  writeSpec(["mcp:fixture"]);
  server.enqueue({ text: "Fine." });
  const first = server.requests.length;
  const result = await runAgentIn(
    sandbox,
    ["run", "hi", "--agent", "mcp-user"],
    anthropicEnv(sandbox, server),
  );
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(
    "MCP server fixture: tool verbose's description is 1048576 characters; cut to 2048 (max_description_chars)",
  );
  const body = server.requests[first]?.body as
    | { tools?: { name: string; description: string }[] }
    | undefined;
  const tools = body?.tools ?? [];
  const verbose = tools.find((t) => t.name === "mcp__fixture__verbose");
  expect(verbose?.description.length).toBeLessThan(2100);
  expect(JSON.stringify(server.requests[first]?.body).length).toBeLessThan(20_000);
});

describe("sampling", () => {
  test("with sampling: true and an allow rule, a server's request runs on the fast tier and its answer returns", async () => {
    writeConfig(stdioYaml("    sampling: true\n"));
    writeSpec(["mcp:everything/trigger-sampling-request"]);
    server.enqueue(
      {
        toolCalls: [{ name: "mcp__everything__trigger-sampling-request", args: { prompt: "name a colour" } }],
      },
      { text: "Teal." },
      { text: "The server heard teal." },
    );
    const first = server.requests.length;
    const result = await runAgentIn(
      sandbox,
      [
        "run",
        "sample",
        "--agent",
        "mcp-user",
        "--allow",
        "mcp:everything/trigger-sampling-request",
        "--allow",
        "mcp:everything/sampling",
      ],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    const [, sampling, last] = server.requests.slice(first);
    const body = sampling?.body as {
      system?: { text: string }[];
      tools?: unknown[];
      messages: { content: unknown }[];
    };
    expect(body.system?.[0]?.text).toBe("You are a helpful test server.");
    expect(body.tools).toBeUndefined();
    expect(JSON.stringify(body.messages)).toContain("name a colour");
    expect(JSON.stringify(last?.body)).toContain("Teal.");
  });

  test("without an allow rule (no terminal to ask), the request is refused and the server reads why", async () => {
    writeConfig(stdioYaml("    sampling: true\n"));
    writeSpec(["mcp:everything/trigger-sampling-request"]);
    server.enqueue(
      { toolCalls: [{ name: "mcp__everything__trigger-sampling-request", args: { prompt: "x" } }] },
      { text: "Refused." },
    );
    const first = server.requests.length;
    const result = await runAgentIn(
      sandbox,
      ["run", "sample", "--agent", "mcp-user", "--allow", "mcp:everything/trigger-sampling-request"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    expect(server.requests.slice(first)).toHaveLength(2);
    expect(JSON.stringify(server.requests[first + 1]?.body)).toContain("sampling declined");
  });
});

test("the server's instructions are in the system prompt of the agent naming it, the same on every turn", async () => {
  writeConfig(stdioYaml());
  writeSpec(["mcp:everything/echo"]);
  server.enqueue(
    { toolCalls: [{ name: "mcp__everything__echo", args: { message: "one" } }] },
    { text: "Done." },
  );
  const first = server.requests.length;
  const result = await runAgentIn(
    sandbox,
    ["run", "echo", "--agent", "mcp-user", "--allow", "mcp:everything/echo"],
    anthropicEnv(sandbox, server),
  );
  expect(result.code).toBe(0);
  const systems = server.requests
    .slice(first)
    .map((r) => (r.body as { system?: { text: string }[] }).system?.[0]?.text ?? "");
  expect(systems).toHaveLength(2);
  expect(systems[0]).toContain(
    "Use the tools.\n\nInstructions from MCP server everything (the server's own words):\n",
  );
  expect(systems[1]).toBe(systems[0] as string);
});
