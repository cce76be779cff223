/**
 * A chat's `/plan GOAL` on a real terminal (tmux, see tmux.ts), the model scripted on the fake server: the
 * message runs in plan mode (read-only tools, nothing written), the plan is put to the user, and y carries
 * it out in the same conversation under the normal rules; the chat goes on afterwards.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

const INPUT = /Enter send/;
/** The tool names request `index` offered (Anthropic's Messages API: `tools[].name`). */
function toolsOf(index: number): string[] {
  const body = server.requests[index]?.body as { tools?: { name: string }[] } | undefined;
  return (body?.tools ?? []).map((tool) => tool.name).sort();
}

const PLAN = { summary: "Create hello.txt.", steps: ["Write hello.txt"], files: ["hello.txt"], commands: [] };

test(
  "/plan GOAL shows a plan, writes nothing until approved, then carries it out in the conversation",
  async () => {
    server.enqueue({ text: JSON.stringify(PLAN) });
    const run = startTerminal(["chat", "--agent", "code-editor"], { server });
    try {
      await run.waitForScreen(INPUT, "the input box");
      run.send("/plan say hello in a file");
      await run.waitForScreen(/has a plan \(nothing has changed yet\)/, "the plan review");
      expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
      expect(JSON.stringify(server.requests[0]?.body)).not.toContain('"write_file"');
      server.enqueue(
        { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello\n" } }] },
        { text: "Wrote hello.txt." },
      );
      run.press("y");
      await run.waitForScreen(/wants to run write_file/, "the write's approval prompt");
      run.press("y");
      await run.waitForScreen(/Wrote hello\.txt\./, "the answer");
      expect(readFileSync(join(run.sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello\n");
      expect(JSON.stringify(server.requests[1]?.body)).toContain("The user approved your plan.");
      expect(await run.exitAfter("C-d")).toBe(0);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  "agent --plan: every message runs in plan mode until a plan is approved; then the chat runs under the normal rules",
  async () => {
    server.enqueue({ text: JSON.stringify(PLAN) });
    const run = startTerminal(["--plan", "--agent", "code-editor"], { server });
    try {
      await run.waitForScreen(/plan mode: each message gets read-only tools/, "the plan-mode note");
      await run.waitForScreen(INPUT, "the input box");
      run.send("say hello in a file");
      await run.waitForScreen(/has a plan \(nothing has changed yet\)/, "the first plan's review");
      expect(JSON.stringify(server.requests[0]?.body)).not.toContain('"write_file"');
      // Rejected: the chat stays in plan mode.
      run.press("n");
      await run.waitForScreen(INPUT, "the input box after the rejection");
      const second = { ...PLAN, summary: "Greet in hello.txt." };
      server.enqueue({ text: JSON.stringify(second) });
      run.send("greet instead");
      await run.waitForScreen(
        /Greet in hello\.txt\.[\s\S]*has a plan \(nothing has changed yet\)/,
        "the second plan's review",
      );
      expect(JSON.stringify(server.requests[1]?.body)).not.toContain('"write_file"');
      expect(existsSync(join(run.sandbox.workspace, "hello.txt"))).toBe(false);
      server.enqueue(
        { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello\n" } }] },
        { text: "Wrote hello.txt." },
      );
      run.press("y");
      await run.waitForScreen(/wants to run write_file/, "the write's approval prompt");
      run.press("y");
      await run.waitForScreen(
        /plan mode is off: the next messages run under the normal rules/,
        "plan mode off",
      );
      expect(readFileSync(join(run.sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello\n");
      expect(JSON.stringify(server.requests[2]?.body)).toContain("The user approved your plan.");
      // The next message is an ordinary one: the write tools are offered, no plan is asked for.
      server.enqueue({ text: "You are welcome." });
      run.send("thanks");
      await run.waitForScreen(/You are welcome\./, "the ordinary answer");
      expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('"write_file"');
      // The same tools, and no plan schema, as the run that carried the plan out.
      expect(toolsOf(server.requests.length - 1)).toEqual(toolsOf(2));
      expect(await run.exitAfter("C-d")).toBe(0);
      expect(server.pending()).toBe(0);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);
