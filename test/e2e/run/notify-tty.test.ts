/**
 * Notifications on a real terminal (tmux, see tmux.ts): a run waiting at an approval prompt writes one OSC 9
 * (`ESC ] 9 ; message BEL`) to the terminal, read from the raw bytes of the pane (tmux pipe-pane), and the
 * user's on_notification hook receives Claude Code's Notification payload. `auto` chooses OSC 9 from
 * TERM_PROGRAM as Codex does; a terminal it does not know gets the bell.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServer, makeE2eSandbox } from "../support.ts";
import { shellQuote, startTerminal, TEST_TIMEOUT_MS } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

const OSC9 = "\x1b]9;";
const PROMPT = /wants to run write_file/;

/** A sandbox whose user config runs an on_notification hook that appends its stdin to `notified.jsonl`. */
function sandboxWithHook(notifications = ""): { sandbox: E2eSandbox; hookLog: string; raw: string } {
  const sandbox = makeE2eSandbox();
  const hookLog = join(sandbox.dir, "notified.jsonl");
  const raw = join(sandbox.dir, "raw-terminal.out");
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  const hook = `cat >> ${shellQuote(hookLog)}`;
  writeFileSync(
    join(sandbox.configDir, "agent", "config.yaml"),
    `hooks:\n  on_notification:\n    - command: ${JSON.stringify(hook)}\n${notifications}`,
  );
  return { sandbox, hookLog, raw };
}

function scriptWrite(): void {
  server.enqueue(
    { toolCalls: [{ name: "code-editor", args: { goal: "Create hello.txt" } }] },
    { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello\n" } }] },
    { text: "Created hello.txt." },
    { text: "Done." },
  );
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

test(
  "a run waiting at an approval emits OSC 9 once, and the on_notification hook gets the Notification payload",
  async () => {
    scriptWrite();
    const { sandbox, hookLog, raw } = sandboxWithHook();
    const run = startTerminal(["run", "Create hello.txt"], {
      server,
      sandbox,
      rawOutput: raw,
      env: { TERM_PROGRAM: "ghostty" },
    });
    try {
      await run.waitForScreen(PROMPT, "the approval prompt");
      const deadline = Date.now() + 10_000;
      while (!(existsSync(raw) && readFileSync(raw, "latin1").includes(OSC9)) && Date.now() < deadline)
        await Bun.sleep(50);
      // Written while the prompt waits, before any key is pressed.
      expect(count(readFileSync(raw, "latin1"), OSC9)).toBe(1);
      expect(await run.exitAfter("y")).toBe(0);
      const bytes = readFileSync(raw, "latin1");
      expect(count(bytes, OSC9)).toBe(1);
      expect(bytes).toContain(`${OSC9}code-editor needs your approval to `);
      // The screen shows no trace of it: the frame is intact.
      expect(run.screen()).not.toContain("]9;");
      const payloads = readFileSync(hookLog, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(payloads).toHaveLength(1);
      expect(payloads[0]).toMatchObject({
        hook_event_name: "Notification",
        notification_type: "permission_prompt",
        cwd: sandbox.workspace,
      });
      expect(payloads[0].message).toContain("code-editor needs your approval to");
      expect(typeof payloads[0].session_id).toBe("string");
      expect(payloads[0].session_id.length).toBeGreaterThan(0);
    } finally {
      run.close();
    }
  },
  TEST_TIMEOUT_MS,
);

test(
  "auto on a terminal it does not know rings the bell instead; `terminal: off` writes neither",
  async () => {
    for (const [config, expected] of [
      ["", "bell"],
      ["notifications:\n  terminal: off\n", "off"],
    ] as const) {
      scriptWrite();
      const { sandbox, raw } = sandboxWithHook(config);
      const run = startTerminal(["run", "Create hello.txt"], { server, sandbox, rawOutput: raw });
      try {
        await run.waitForScreen(PROMPT, "the approval prompt");
        expect(await run.exitAfter("y")).toBe(0);
        const bytes = readFileSync(raw, "latin1");
        expect(count(bytes, OSC9)).toBe(0);
        // Ink writes no BEL of its own: any BEL is the notification's.
        expect(count(bytes, "\x07")).toBe(expected === "bell" ? 1 : 0);
      } finally {
        run.close();
      }
    }
  },
  TEST_TIMEOUT_MS * 2,
);

/** The hook's payloads, one JSON object a line. */
function payloadsIn(hookLog: string): { notification_type: string; message: string }[] {
  return readFileSync(hookLog, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** Waits until the raw terminal output holds OSC 9 (written while the prompt waits, before any key). */
async function untilOsc9(raw: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!(existsSync(raw) && readFileSync(raw, "latin1").includes(OSC9)) && Date.now() < deadline)
    await Bun.sleep(50);
  return existsSync(raw) ? readFileSync(raw, "latin1") : "";
}

const PLAN = { summary: "Create hello.txt.", steps: ["Write hello.txt"], files: ["hello.txt"], commands: [] };

test(
  "a plan waiting for approval (agent run --plan, and a chat's plan) notifies as an approval does",
  async () => {
    for (const args of [
      ["run", "--plan", "--agent", "code-editor", "Create hello.txt"],
      ["--plan", "--agent", "code-editor", "Create hello.txt"],
    ]) {
      server.enqueue({ text: JSON.stringify(PLAN) });
      const { sandbox, hookLog, raw } = sandboxWithHook();
      const run = startTerminal(args, { server, sandbox, rawOutput: raw, env: { TERM_PROGRAM: "ghostty" } });
      try {
        await run.waitForScreen(/has a plan \(nothing has changed yet\)/, "the plan review");
        const bytes = await untilOsc9(raw);
        expect(count(bytes, OSC9)).toBe(1);
        expect(bytes).toContain(`${OSC9}code-editor needs your approval to carry out this plan`);
        expect(run.screen()).not.toContain("]9;");
        // n rejects: nothing was carried out.
        run.press("n");
        if (args[0] === "run") expect(await run.exitStatus()).toBe(0);
        else {
          await run.waitForScreen(/Enter send/, "the input box");
          expect(await run.exitAfter("C-d")).toBe(0);
        }
        expect(existsSync(join(sandbox.workspace, "hello.txt"))).toBe(false);
        const payloads = payloadsIn(hookLog);
        expect(payloads).toHaveLength(1);
        expect(payloads[0]).toMatchObject({
          hook_event_name: "Notification",
          notification_type: "permission_prompt",
          cwd: sandbox.workspace,
        });
        expect(payloads[0]?.message).toBe("code-editor needs your approval to carry out this plan");
      } finally {
        run.close();
      }
    }
  },
  TEST_TIMEOUT_MS * 2,
);
