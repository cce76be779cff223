/**
 * MCP tool calls at run time against the real `@modelcontextprotocol/server-everything` over stdio,
 * watched from the server's side by a pass-through tap (test/support/mcp-stdio-tap.ts): every call
 * carries a progress token, progress resets `tool_timeout_ms`, and aborting the run cancels only the
 * call in flight, never `initialize`.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ToolProgress } from "../../../src/kernel/index.ts";
import { initialDrafts } from "../../../src/kernel/run-events/elicitation.ts";
import { Redactor } from "../../../src/kernel/text/redact.ts";
import type { McpClientHandlers } from "../../../src/tools/mcp/client-requests.ts";
import { elicitationHandler } from "../../../src/tools/mcp/elicitation.ts";
import { McpServers } from "../../../src/tools/mcp/servers.ts";
import { finishOutput, IMAGE_LIMIT } from "../../../src/tools/tool-output.ts";
import type { ToolContext } from "../../../src/tools/types.ts";
import { Workspace } from "../../../src/tools/workspace.ts";
import { everythingStdio, sentMessages } from "../../support/mcp-everything.ts";

setDefaultTimeout(90_000);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-mcp-rt-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function startEverything(log: string, extra = {}, signal = new AbortController().signal) {
  const servers = new McpServers({ everything: everythingStdio(log, extra) });
  cleanups.push(() => servers.closeAll());
  const warnings: string[] = [];
  const tools = await servers.toolsFor(["mcp:everything"], (w) => warnings.push(w), signal);
  return { servers, tools, warnings };
}

async function context(signal: AbortSignal, onProgress?: (p: ToolProgress) => void): Promise<ToolContext> {
  return {
    workspace: await Workspace.open(tempDir()),
    signal,
    ...(onProgress ? { onProgress } : {}),
  };
}

describe("long-running MCP tools", () => {
  test("a call carries a progress token, reports progress, and outlives tool_timeout_ms while progress comes", async () => {
    const log = join(tempDir(), "sent.jsonl");
    // Six half-second steps: 3 s in all, past the 2 s tool timeout, which each progress report restarts.
    const { tools, warnings } = await startEverything(log, { toolTimeoutMs: 2_000 });
    expect(warnings).toEqual([]);
    const tool = tools.get("mcp__everything__trigger-long-running-operation");
    expect(tool).toBeDefined();
    const reports: ToolProgress[] = [];
    const out = await tool!.run(
      { duration: 3, steps: 6 },
      await context(new AbortController().signal, (p) => reports.push(p)),
    );
    expect(out.isError).toBe(false);
    expect(out.modelText).toContain("Long running operation completed");
    // The SDK handles notifications a microtask after they arrive and the result at once, so the last
    // report can land after the result: five or six of them, in order.
    expect(reports.map((r) => r.progress)).toEqual([1, 2, 3, 4, 5, 6].slice(0, reports.length));
    expect(reports.length).toBeGreaterThanOrEqual(5);
    expect(reports.every((r) => r.total === 6)).toBe(true);
    const call = sentMessages(log).find((m) => m.method === "tools/call");
    expect((call?.params?._meta as { progressToken?: unknown })?.progressToken).toBe(call?.id);
  });

  test("without progress, a call past tool_timeout_ms fails with a timeout the model can read", async () => {
    const log = join(tempDir(), "sent.jsonl");
    const { tools } = await startEverything(log, { toolTimeoutMs: 1_000 });
    // One 5 s step: no progress before the 1 s timeout.
    const out = await tools
      .get("mcp__everything__trigger-long-running-operation")!
      .run({ duration: 5, steps: 1 }, await context(new AbortController().signal));
    expect(out.isError).toBe(true);
    expect(out.modelText).toContain("Request timed out");
  });
});

describe("cancellation", () => {
  test("aborting the run cancels only the call in flight: one notifications/cancelled, never initialize", async () => {
    const log = join(tempDir(), "sent.jsonl");
    // One run signal for the start, a finished call and the call in flight, as in a real run.
    const run = new AbortController();
    const { servers, tools } = await startEverything(log, {}, run.signal);
    const echo = await tools.get("mcp__everything__echo")!.run({ message: "hi" }, await context(run.signal));
    expect(echo.modelText).toContain("hi");
    let started!: () => void;
    const firstProgress = new Promise<void>((resolve) => {
      started = resolve;
    });
    const pending = tools
      .get("mcp__everything__trigger-long-running-operation")!
      .run({ duration: 60, steps: 60 }, await context(run.signal, () => started()));
    await firstProgress;
    run.abort(new Error("interrupted"));
    const out = await pending;
    expect(out.isError).toBe(true);
    // Closing ends the tap's input: everything the client sent is in the log once it has.
    await servers.closeAll();
    const sent = sentMessages(log);
    const cancelled = sent.filter((m) => m.method === "notifications/cancelled");
    const call = sent.find(
      (m) => m.method === "tools/call" && m.params?.name === "trigger-long-running-operation",
    );
    const initialize = sent.find((m) => m.method === "initialize");
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]?.params?.requestId).toBe(call?.id);
    expect(cancelled[0]?.params?.requestId).not.toBe(initialize?.id);
  });
});

describe("rich results", () => {
  test("an image reaches the output as an image part; the user sees one line", async () => {
    const { tools } = await startEverything(join(tempDir(), "sent.jsonl"));
    const out = await tools
      .get("mcp__everything__get-tiny-image")!
      .run({}, await context(new AbortController().signal));
    expect(out.isError).toBe(false);
    expect(out.images).toHaveLength(1);
    expect(out.images?.[0]?.mediaType).toBe("image/png");
    expect(out.images?.[0]?.data.startsWith("iVBORw0KGgo")).toBe(true);
    expect(out.modelText).toBe(
      "Here's the image you requested:\n[image 1: image/png, attached]\nThe image above is the MCP logo.",
    );
    expect(out.display).toBe("Here's the image you requested: (+1 image)");
  });

  test("a text resource is inline, a blob resource and resource links are described references", async () => {
    const { tools } = await startEverything(join(tempDir(), "sent.jsonl"));
    const ctx = await context(new AbortController().signal);
    const text = await tools
      .get("mcp__everything__get-resource-reference")!
      .run({ resourceType: "Text", resourceId: 1 }, ctx);
    expect(text.modelText).not.toContain("[resource");
    const blob = await tools
      .get("mcp__everything__get-resource-reference")!
      .run({ resourceType: "Blob", resourceId: 1 }, ctx);
    expect(blob.modelText).toContain(
      "[resource demo://resource/dynamic/blob/1 (text/plain, 57 bytes): binary content not shown]",
    );
    const links = await tools.get("mcp__everything__get-resource-links")!.run({ count: 2 }, ctx);
    expect(links.modelText).toContain(
      "[resource link Text Resource 2: demo://resource/dynamic/text/2 (text/plain; Resource 2: plaintext resource)]",
    );
  });
});

test("images past the limit of one result become a note; the text keeps its limit", () => {
  const big = { type: "image" as const, mediaType: "image/png" as const, data: "A".repeat(IMAGE_LIMIT - 10) };
  const small = { type: "image" as const, mediaType: "image/png" as const, data: "B".repeat(100) };
  const out = finishOutput(
    { modelText: "shots", display: "shots", isError: false, images: [big, small, small] },
    new Redactor([]),
  );
  expect(out.images).toEqual([big]);
  expect(out.modelText).toBe(
    "shots\n[image image/png of 1 KB not shown: past the limit of images in one result]\n" +
      "[image image/png of 1 KB not shown: past the limit of images in one result]",
  );
});

describe("client capabilities", () => {
  async function startWith(handlers: McpClientHandlers, log = join(tempDir(), "sent.jsonl")) {
    const servers = new McpServers({ everything: everythingStdio(log) }, { handlers });
    cleanups.push(() => servers.closeAll());
    const warnings: string[] = [];
    const tools = await servers.toolsFor(
      ["mcp:everything"],
      (w) => warnings.push(w),
      new AbortController().signal,
    );
    return { servers, tools, log };
  }

  test("initialize announces roots (listChanged) and form elicitation, and no sampling unless configured", async () => {
    const { servers, log } = await startWith({ roots: () => ["/work/a"] });
    await servers.closeAll();
    const init = sentMessages(log).find((m) => m.method === "initialize");
    expect((init?.params as { capabilities?: unknown } | undefined)?.capabilities).toEqual({
      roots: { listChanged: true },
      elicitation: { form: { applyDefaults: true } },
    });
  });

  test("the server lists the workspace roots, and hears when they change", async () => {
    let roots = [tempDir()];
    const { servers, tools, log } = await startWith({ roots: () => roots });
    const ctx = await context(new AbortController().signal);
    const listed = await tools.get("mcp__everything__get-roots-list")!.run({}, ctx);
    expect(listed.modelText).toContain(pathToFileURL(roots[0]!).href);
    roots = [tempDir()];
    await servers.rootsChanged();
    await servers.closeAll();
    expect(sentMessages(log).filter((m) => m.method === "notifications/roots/list_changed")).toHaveLength(1);
  });

  test("an elicitation nobody can answer is declined at once: the server sees a decline", async () => {
    const { tools } = await startWith({ roots: () => [] });
    const out = await tools
      .get("mcp__everything__trigger-elicitation-request")!
      .run({}, await context(new AbortController().signal));
    expect(out.modelText).toContain("User declined to provide the requested information.");
  });

  test("a form answered through the product's handler: the server receives the pre-filled defaults and the typed name", async () => {
    const asked: string[] = [];
    const elicit = elicitationHandler(async (question) => {
      asked.push(`${question.server}: ${question.message}`);
      return { action: "accept", drafts: { ...initialDrafts(question.fields), name: "Ada" } };
    });
    const { tools } = await startWith({ roots: () => [], elicit });
    const out = await tools
      .get("mcp__everything__trigger-elicitation-request")!
      .run({}, await context(new AbortController().signal));
    expect(asked).toEqual(["everything: Please provide inputs for the following fields:"]);
    expect(out.modelText).toContain("User provided the requested information!");
    expect(out.modelText).toContain('"name": "Ada"');
    expect(out.modelText).toContain('"integer": 42');
    expect(out.modelText).toContain('"firstLine": "It was a dark and stormy night."');
  });

  test("aborting the run while a form waits answers cancel and ends the wait", async () => {
    const controller = new AbortController();
    let waiting: () => void = () => {};
    const shown = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const elicit = elicitationHandler(
      (_question, signal) =>
        new Promise((_resolve, reject) => {
          waiting();
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
    );
    const log = join(tempDir(), "sent.jsonl");
    const servers = new McpServers(
      { everything: everythingStdio(log) },
      { handlers: { roots: () => [], elicit } },
    );
    cleanups.push(() => servers.closeAll());
    const tools = await servers.toolsFor(["mcp:everything"], () => {}, new AbortController().signal);
    const run = tools
      .get("mcp__everything__trigger-elicitation-request")!
      .run({}, await context(controller.signal));
    await shown;
    controller.abort(new Error("interrupted"));
    await run.catch(() => undefined);
    await servers.closeAll();
    const answers = sentMessages(log).filter(
      (m) => (m as { result?: { action?: string } }).result?.action !== undefined,
    );
    expect(answers.map((m) => (m as { result: { action: string } }).result.action)).toEqual(["cancel"]);
  });

  test("server instructions are offered for the system prompt of the agent naming the server", async () => {
    const { servers } = await startWith({ roots: () => [] });
    const notes = servers.instructionsFor(["mcp:everything", "read_file"]);
    expect(notes?.startsWith("Instructions from MCP server everything (the server's own words):\n")).toBe(
      true,
    );
    expect(notes?.length).toBeLessThanOrEqual(2048 + 200);
    expect(servers.instructionsFor(["read_file"])).toBeUndefined();
  });
});
