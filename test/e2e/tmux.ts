/**
 * Terminal tests: bin/agent runs inside a tmux pane (a private tmux server per test process), so it gets
 * the Ink renderer and the interactive approval prompt; a test reads the screen with capture-pane and
 * answers with send-keys. tmux is required: without it these tests fail (CI installs it in .ci/run).
 */
import { afterAll } from "bun:test";
import type { FakeLlmServer } from "../support/fake-llm-server.ts";
import { AGENT_BIN, type E2eSandbox, makeE2eSandbox, TEST_KEY } from "./support.ts";

const TMUX = Bun.which("tmux");
const SOCKET = `agent-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
export const SCREEN_TIMEOUT_MS = 15_000;
/** Bun's own per-test limit: above two screen waits, so a missing screen fails with its own message. */
export const TEST_TIMEOUT_MS = 40_000;

afterAll(() => {
  if (TMUX !== null)
    Bun.spawnSync([TMUX, "-L", SOCKET, "kill-server"], { stdout: "ignore", stderr: "ignore" });
});

/** Runs a tmux command on the private server; fails loudly when tmux is missing or the command fails. */
export function tmux(...args: string[]): string {
  if (TMUX === null) {
    throw new Error(
      "tmux is not installed: the terminal tests of `agent run` need it (apt-get install -y tmux)",
    );
  }
  const result = Bun.spawnSync([TMUX, "-L", SOCKET, ...args], { stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) {
    throw new Error(`tmux ${args.join(" ")} failed (${result.exitCode}): ${result.stderr.toString()}`);
  }
  return result.stdout.toString();
}

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

let sessions = 0;

/** A run of `agent ARGS...` in a fresh tmux session; the pane stays open after the run for reading. */
export interface TerminalRun {
  name: string;
  sandbox: E2eSandbox;
  /** The visible screen. */
  screen(): string;
  /** The whole pane: scrollback and screen (`capture-pane -S -`). */
  scrollback(): string;
  /** Polls the screen until `pattern` shows, failing with the last screen after the timeout. */
  waitForScreen(pattern: RegExp, what: string): Promise<string>;
  /** tmux send-keys: key names (`Enter`, `C-c`) or text. */
  press(...keys: string[]): void;
  /** Types text literally (send-keys -l), no Enter. */
  type(text: string): void;
  /** Types text literally and presses Enter: a message or a / command sent. */
  send(text: string): void;
  /** Presses each key in turn (one send-keys each), then waits for the run to end: its exit status. */
  exitAfter(...keys: string[]): Promise<number>;
  /** Waits for the run to end and returns its exit status (printed by the pane's shell). */
  exitStatus(): Promise<number>;
  close(): void;
}

export interface TerminalOptions {
  server: FakeLlmServer;
  env?: Record<string, string>;
  /** A shell suffix after the agent command, e.g. `| cat` to run it with stdout piped. */
  pipe?: string;
  /** Prepares the sandbox before the run starts (files in the workspace, config). */
  prepare?: (sandbox: E2eSandbox) => void;
  /** Run in this sandbox (e.g. one an earlier run used) instead of a new one. */
  sandbox?: E2eSandbox;
  /** A file that receives every byte the run writes to the terminal, escape sequences included (tmux
   * pipe-pane, started with the session so nothing written is missed). */
  rawOutput?: string;
}

export function startTerminal(args: string[], options: TerminalOptions): TerminalRun {
  const sandbox = options.sandbox ?? makeE2eSandbox();
  options.prepare?.(sandbox);
  sessions += 1;
  const name = `run${sessions}`;
  const env = sandbox.env({
    TERM: "xterm-256color",
    ANTHROPIC_API_KEY: TEST_KEY,
    ANTHROPIC_BASE_URL: options.server.anthropicBaseUrl,
    ...options.env,
  });
  const assignments = Object.entries(env).map(([key, value]) => shellQuote(`${key}=${value}`));
  const agent = `env -i ${assignments.join(" ")} ${[AGENT_BIN, ...args].map(shellQuote).join(" ")}`;
  const command = [`cd ${shellQuote(sandbox.workspace)}`, `${agent}${options.pipe ?? ""}`].join(" && ");
  // Run by sh whatever the user's shell; print the status, then keep the pane open for capture-pane.
  // `trap : INT`: a Ctrl-C the terminal turns into SIGINT (once the agent has left raw mode) reaches the
  // whole foreground group, this shell too; caught (not ignored, so the agent starts with the default),
  // it no longer kills the shell before it prints the status.
  const script = `trap : INT; ${command}; echo "EXIT=$?"; exec sleep 600`;
  try {
    // remain-on-exit keeps the pane readable even if its shell dies: a Ctrl-C sent after the agent has
    // already exited reaches the shell (the terminal is back in cooked mode), and without it the pane, the
    // session and the tmux server vanish before the test reads the screen.
    tmux(
      "new-session",
      "-d",
      "-s",
      name,
      "-x",
      "120",
      "-y",
      "40",
      "sh",
      "-c",
      script,
      ";",
      "set-option",
      "-t",
      name,
      "remain-on-exit",
      "on",
      ...(options.rawOutput !== undefined
        ? [";", "pipe-pane", "-t", name, `cat >> ${shellQuote(options.rawOutput)}`]
        : []),
    );
  } catch (error) {
    sandbox.cleanup();
    throw error;
  }

  const screen = () => tmux("capture-pane", "-p", "-t", name);
  const waitForScreen = async (pattern: RegExp, what: string): Promise<string> => {
    const deadline = Date.now() + SCREEN_TIMEOUT_MS;
    for (;;) {
      const text = screen();
      if (pattern.test(text)) return text;
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${SCREEN_TIMEOUT_MS} ms waiting for ${what}; the screen:\n${text}`);
      }
      await Bun.sleep(50);
    }
  };
  const press = (...keys: string[]): void => {
    tmux("send-keys", "-t", name, ...keys);
  };
  const type = (text: string): void => {
    tmux("send-keys", "-t", name, "-l", text);
  };
  const exitStatus = async (): Promise<number> => {
    const text = await waitForScreen(/EXIT=\d+/, "the run to end (EXIT=)");
    return Number(/EXIT=(\d+)/.exec(text)?.[1]);
  };
  return {
    name,
    sandbox,
    screen,
    scrollback: () => tmux("capture-pane", "-p", "-S", "-", "-t", name),
    waitForScreen,
    press,
    type,
    send: (text) => {
      type(text);
      press("Enter");
    },
    exitStatus,
    exitAfter: async (...keys) => {
      for (const key of keys) press(key);
      return exitStatus();
    },
    close: () => {
      try {
        tmux("kill-session", "-t", name);
      } catch (error) {
        // The session (and its private tmux server) may be gone already: nothing left to close.
        if (!String(error).includes("no server running")) throw error;
      } finally {
        sandbox.cleanup();
      }
    },
  };
}

/** Runs `body` with a terminal run of `agent ARGS...`, then closes it (the tmux session and the sandbox) whatever happened. */
export async function withTerminal(
  args: string[],
  options: TerminalOptions,
  body: (run: TerminalRun) => Promise<void>,
): Promise<void> {
  const run = startTerminal(args, options);
  try {
    await body(run);
  } finally {
    run.close();
  }
}
