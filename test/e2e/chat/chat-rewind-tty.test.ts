/**
 * The chat's `/rewind` on a real terminal (tmux): a chat whose messages edit three files and run a
 * command that changes a fourth is rewound to each earlier message in turn, through the two lists (↑/↓,
 * Enter), and the files come back exactly as they were before that message, the conversation with them
 * (the next request leaves the rewound messages out); a file the user changed in between is named on the
 * screen and left as the user wrote it. The workspace is not a git repository.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer, writeProjectSpec } from "../support.ts";
import { TEST_TIMEOUT_MS, type TerminalRun, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

const INPUT = /Enter send/;
const FILES = ["a.txt", "b.txt", "c.txt", "d.txt"];

function files(workspace: string): Record<string, string | undefined> {
  return Object.fromEntries(
    FILES.map((name) => {
      const path = join(workspace, name);
      return [name, existsSync(path) ? readFileSync(path, "utf8") : undefined];
    }),
  );
}

/** Sends a message and waits for its answer and the input box. */
async function say(run: TerminalRun, text: string, answer: string): Promise<void> {
  run.send(text);
  await run.waitForScreen(new RegExp(answer), answer);
  await run.waitForScreen(INPUT, "the input box");
}

/** `/rewind`, the message list (moved `up` times from the last entry), then "code and conversation". */
async function rewind(run: TerminalRun, up: number, expect: RegExp): Promise<string> {
  run.press("C-u");
  run.send("/rewind");
  // Each list's key hint shows once it listens to keys (choice-list.tsx): a key pressed earlier is lost.
  await run.waitForScreen(/rewind to before which message[\s\S]*Enter choose/, "the list of messages");
  for (let i = 0; i < up; i++) run.press("Up");
  run.press("Enter");
  await run.waitForScreen(/restore code and conversation[\s\S]*Enter choose/, "the list of what to restore");
  run.press("Enter");
  return run.waitForScreen(expect, "the rewind's report");
}

test(
  "/rewind to each earlier message restores the files and the conversation; the user's own edit is reported",
  async () => {
    server.enqueue(
      {
        toolCalls: [
          { name: "write_file", args: { path: "a.txt", content: "a one\n" } },
          { name: "edit_file", args: { path: "b.txt", old_string: "original", new_string: "edited" } },
        ],
      },
      { text: "did one" },
      {
        toolCalls: [
          { name: "exec", args: { command: "printf 'c by command\\n' > c.txt" } },
          { name: "write_file", args: { path: "d.txt", content: "d two\n" } },
        ],
      },
      { text: "did two" },
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "a three\n" } }] },
      { text: "did three" },
      { text: "answer to the new second" },
    );
    const prepare = (sandbox: { workspace: string; dir: string }) => {
      const spec = ["name: maker", "description: Makes.", "model: fast", "system_prompt: Make it."];
      const tools = "capabilities: [read_file, write_file, edit_file, exec]";
      writeProjectSpec(
        sandbox as Parameters<typeof writeProjectSpec>[0],
        "maker.yaml",
        [...spec, tools, ""].join("\n"),
      );
      writeFileSync(join(sandbox.workspace, "b.txt"), "b original\n");
      writeFileSync(join(sandbox.workspace, "c.txt"), "c original\n");
    };
    const args = [
      "chat",
      "--agent",
      "maker",
      "--allow",
      "write_file",
      "--allow",
      "edit_file",
      "--allow",
      "exec",
    ];
    await withTerminal(args, { server, prepare }, async (run) => {
      const ws = run.sandbox.workspace;
      await run.waitForScreen(INPUT, "the input box");
      const states = [files(ws)];
      await say(run, "first message", "did one");
      states.push(files(ws));
      // A command that writes through a redirection asks even under `--allow exec` (policy/programs.ts).
      run.send("second message");
      await run.waitForScreen(/wants to run exec/, "the approval prompt");
      run.press("y");
      await run.waitForScreen(/did two/, "did two");
      await run.waitForScreen(INPUT, "the input box");
      states.push(files(ws));
      await say(run, "third message", "did three");
      expect(files(ws)).toEqual({
        "a.txt": "a three\n",
        "b.txt": "b edited\n",
        "c.txt": "c by command\n",
        "d.txt": "d two\n",
      });

      await rewind(run, 0, /rewound code and conversation to before message 3/);
      expect(files(ws)).toEqual(states[2] ?? {});
      await run.waitForScreen(INPUT, "the input box");

      // The list now starts with the undo: "2." is the last entry.
      await rewind(run, 0, /rewound code and conversation to before message 2/);
      expect(files(ws)).toEqual(states[1] ?? {});
      await run.waitForScreen(INPUT, "the input box");
      run.press("C-u");
      await say(run, "new second", "answer to the new second");
      const sent = JSON.stringify(server.requests.at(-1)?.body);
      expect(sent).toContain("first message");
      expect(sent).not.toContain("second message");
      expect(sent).not.toContain("third message");

      // The user edits a.txt, then rewinds to message 1 (undo, 1., 2.: one up from the last).
      writeFileSync(join(ws, "a.txt"), "the user's own edit\n");
      const report = await rewind(run, 1, /rewound code and conversation to before message 1/);
      await run.waitForScreen(/not restored: a\.txt: changed since the agent left it/, "the kept file");
      expect(report).toContain("restored b.txt");
      expect(files(ws)).toEqual({ ...states[0], "a.txt": "the user's own edit\n" });
      expect(await run.exitAfter("C-u", "C-d")).toBe(0);
      expect(server.pending()).toBe(0);
    });
  },
  TEST_TIMEOUT_MS * 2,
);

test(
  "Esc Esc on the empty input opens the rewind list; Esc while a turn runs interrupts it and opens nothing",
  async () => {
    server.enqueue(
      { toolCalls: [{ name: "write_file", args: { path: "a.txt", content: "a one\n" } }] },
      { text: "did one" },
      { text: "Once upon a time there was a very slow story", hangAfterEvents: 4 },
    );
    const args = ["chat", "--agent", "code-editor", "--allow", "write_file"];
    await withTerminal(args, { server }, async (run) => {
      const ws = run.sandbox.workspace;
      await run.waitForScreen(INPUT, "the input box");
      await say(run, "first message", "did one");
      expect(files(ws)["a.txt"]).toBe("a one\n");
      run.send("tell me a slow story");
      await run.waitForScreen(/Once upon a time/, "the running turn's text");
      // While the turn runs, Esc interrupts it (and arms nothing).
      run.press("Escape");
      await run.waitForScreen(/interrupted/, "the interrupted turn");
      await run.waitForScreen(INPUT, "the input box after the interruption");
      expect(run.screen()).not.toContain("rewind to before which message");
      // At the idle, empty input: the first Esc says what a second does, the second opens the list.
      run.press("Escape");
      await run.waitForScreen(/Press Esc again to rewind/, "the first Esc's hint");
      run.press("Escape");
      await run.waitForScreen(/rewind to before which message[\s\S]*Enter choose/, "the list of messages");
      run.press("Up");
      run.press("Enter");
      await run.waitForScreen(
        /restore code and conversation[\s\S]*Enter choose/,
        "the list of what to restore",
      );
      run.press("Enter");
      await run.waitForScreen(/rewound code and conversation to before message 1/, "the rewind's report");
      expect(files(ws)["a.txt"]).toBeUndefined();
      await run.waitForScreen(INPUT, "the input box");
      expect(await run.exitAfter("C-u", "C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);
