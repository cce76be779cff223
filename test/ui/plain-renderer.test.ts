import { describe, expect, test } from "bun:test";
import { makeEvent } from "../../src/kernel/run-events/events.ts";
import { PlainRenderer } from "../../src/ui/plain-renderer.ts";
import { selectRenderer } from "../../src/ui/renderer.ts";
import { editor, finishedRun, MemorySink, root, sampleRun } from "./fixtures.ts";

const ESC = "\u001b[";

describe("plain renderer", () => {
  test("the answer alone on stdout; the agent tree, tools, denials and warnings on stderr", async () => {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const renderer = new PlainRenderer({ stdout, stderr, colors: false });
    for (const event of sampleRun()) renderer.onEvent(event);
    expect(stdout.text).toBe("");
    await renderer.finish(finishedRun());
    expect(stdout.text).toBe("Done: the fix.\n");

    const err = stderr.text;
    expect(err).toContain("▸ root (m-1): fix the bug");
    expect(err).toContain("\n▸ root: delegating to code-editor: fix src/x.ts");
    expect(err).toContain("\n  ▸ code-editor: delegating to code-reader: find the bug");
    expect(err).toContain("\n      ✓ grep TODO in src — 3 matches (5ms)");
    expect(err).toContain("\n    ✗ denied edit_file src/x.ts (by --on-ask)");
    // One line per denial: the refused call's own tool_end adds nothing.
    expect(err).not.toContain("✗ edit_file src/x.ts — denied");
    expect(err).toContain("⚠ code-editor: stalled once");
    expect(err).toContain("■ success (stop)");
    expect(err).toContain("session s-1");
    expect(err).not.toContain(ESC);
  });

  test("colors only when asked (stderr TTY and NO_COLOR unset); an empty answer prints nothing", async () => {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const renderer = new PlainRenderer({ stdout, stderr, colors: true });
    for (const event of sampleRun()) renderer.onEvent(event);
    await renderer.finish(
      finishedRun({ answer: "", status: "failure", finishReason: "verify_failed", exitCode: 1 }),
    );
    expect(stderr.text).toContain(ESC);
    expect(stdout.text).toBe("");
  });
});

describe("selectRenderer", () => {
  test("Ink only with stdin and stdout TTYs in text mode", () => {
    expect(selectRenderer({ output: "text", stdinIsTTY: true, stdoutIsTTY: true })).toBe("ink");
    expect(selectRenderer({ output: "text", stdinIsTTY: false, stdoutIsTTY: true })).toBe("plain");
    expect(selectRenderer({ output: "text", stdinIsTTY: true, stdoutIsTTY: false })).toBe("plain");
    expect(selectRenderer({ output: "json", stdinIsTTY: true, stdoutIsTTY: true })).toBe("json");
    expect(selectRenderer({ output: "stream-json", stdinIsTTY: true, stdoutIsTTY: true })).toBe(
      "stream-json",
    );
  });
});

describe("plain renderer and failed verification", () => {
  test("a failed verify: command gets a line; a failed tool call is not repeated", () => {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const renderer = new PlainRenderer({ stdout, stderr, colors: false });
    renderer.onEvent(makeEvent(editor, "verify", { step: "tool", ok: false, detail: "exec: denied" }));
    renderer.onEvent(
      makeEvent(editor, "verify", {
        step: "command",
        ok: false,
        detail: "1 test failed",
        command: "npm test",
      }),
    );
    expect(stderr.text).not.toContain("exec: denied");
    expect(stderr.text).toContain("✗ verify npm test: 1 test failed");
  });
});

describe("plain renderer and commands", () => {
  test("a finished exec shows its status, line count and last output line", () => {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const renderer = new PlainRenderer({ stdout, stderr, colors: false });
    renderer.onEvent(makeEvent(root, "tool_start", { id: "t", tool: "exec", args: { command: "make" } }));
    renderer.onEvent(
      makeEvent(root, "tool_end", {
        id: "t",
        tool: "exec",
        isError: true,
        summary: "exit code 2, 40 lines",
        display: "",
        durationMs: 5,
        tail: ["FAIL a", "2 failed"],
      }),
    );
    expect(stderr.text).toBe("  ✗ exec $ make — exit code 2, 40 lines: 2 failed (5ms)\n");
  });
});

describe("plain renderer and compaction", () => {
  test("a compaction gets a progress line on stderr", () => {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const renderer = new PlainRenderer({ stdout, stderr, colors: false });
    renderer.onEvent(
      makeEvent(root, "compaction", {
        reason: "requested",
        model: "m-fast",
        summarized: 5,
        kept: 4,
        summary: { role: "user", content: "Goal: x" },
      }),
    );
    expect(stderr.text).toBe(
      "↻ root: compacted the conversation on request: 5 earlier messages summarised by m-fast, the last 4 kept\n",
    );
    expect(stdout.text).toBe("");
  });
});

describe("plain renderer and run errors", () => {
  test("an error already shown as an event is not repeated by the closing summary", async () => {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const renderer = new PlainRenderer({ stdout, stderr, colors: false });
    const message = "anthropic m-1: 401 authentication failed";
    renderer.onEvent(makeEvent(editor, "error", { message, kind: "auth" }));
    await renderer.finish(
      finishedRun({
        answer: "",
        status: "error",
        finishReason: "provider_error",
        exitCode: 4,
        error: { kind: "auth", message },
      }),
    );
    expect(stderr.text.split(message).length - 1).toBe(1);
    expect(stderr.text).toContain("■ error (provider_error)");
  });
});

describe("plain renderer and reasoning", () => {
  test("reasoning between tool calls is shown as progress on stderr, never as the answer", async () => {
    const stdout = new MemorySink();
    const stderr = new MemorySink();
    const renderer = new PlainRenderer({ stdout, stderr, colors: false });
    renderer.onEvent(makeEvent(editor, "plan_start", { turn: 1, model: "m-1" }));
    renderer.onEvent(makeEvent(editor, "reasoning_delta", { delta: "Checking the config " }));
    renderer.onEvent(makeEvent(editor, "reasoning_delta", { delta: "before editing." }));
    renderer.onEvent(
      makeEvent(editor, "plan_end", {
        turn: 1,
        stopReason: "tool_calls",
        usage: {
          inputTokens: 1,
          outputTokens: 1,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          reasoningTokens: 1,
        },
        text: "",
        toolCalls: [{ id: "c1", name: "read_file" }],
      }),
    );
    expect(stderr.text).toBe("    … code-editor: Checking the config before editing.\n");
    await renderer.finish(finishedRun({ answer: "" }));
    expect(stdout.text).toBe("");
  });
});
