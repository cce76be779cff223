/**
 * `agent run` without a terminal, in the test process (in-process.ts: the CLI's own entry with the
 * sandbox's directory, environment and collected stdout/stderr), against the fake LLM server (real
 * Anthropic SDK and adapter), in a temp workspace with temp HOME / XDG directories: approvals, output
 * modes, record and replay, verification, sessions, secrets, usage and configuration errors, tier
 * choices, stalls and spec loading. What only a process has (the exit itself, signals, a killed run)
 * is in test/e2e/run/run-headless.test.ts.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TIER_MODELS } from "../../../src/llm/resolve.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  onlyTranscriptText,
  parseJsonLines,
  sessionIds,
  TEST_KEY,
  toolResultsOf,
  transcriptRecords,
  writeProjectSpec,
} from "../../e2e/support.ts";
import type { FakeLlmServer, FakeTurn } from "../../support/fake-llm-server.ts";
import { checkStreamJson, DELEGATION_GOAL, delegationTurns } from "../../support/run-scripts.ts";
import { inProcessFixture, runInProcess } from "./in-process.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
const fixture = inProcessFixture((s, b) => {
  server = s;
  sandbox = b;
});

/** Runs `agent ARGS` and notes which of the server's requests belong to it. */
function run(args: string[], env = anthropicEnv(sandbox, server)) {
  return fixture.run(args, env);
}

describe("delegation and approvals", () => {
  test("--cwd names the workspace when the command runs elsewhere", async () => {
    server.enqueue(...delegationTurns());
    const elsewhere = join(sandbox.dir, "elsewhere");
    mkdirSync(elsewhere);
    const { code, stdout } = await runInProcess(
      ["run", DELEGATION_GOAL, "--on-ask", "allow", "--cwd", sandbox.workspace],
      { env: anthropicEnv(sandbox, server), cwd: elsewhere },
    );
    expect(code).toBe(0);
    expect(stdout).toBe("Done.\n");
    expect(existsSync(join(sandbox.workspace, "hello.txt"))).toBe(true);
    expect(existsSync(join(elsewhere, "hello.txt"))).toBe(false);
  });

  test("default (no --on-ask): the write is denied, the model is told, the run still answers with exit 0", async () => {
    server.enqueue(...delegationTurns("I could not write hello.txt.", "The write was not approved."));
    const result = await run(["run", DELEGATION_GOAL]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The write was not approved.\n");
    expect(existsSync(join(sandbox.workspace, "hello.txt"))).toBe(false);
    // The child's next request carries the denial as the write_file tool result.
    const afterWrite = toolResultsOf(result.requests[2]);
    expect(afterWrite).toHaveLength(1);
    expect(afterWrite[0]).toContain("--on-ask deny");
    expect(afterWrite[0]).toContain("write_file");
    // The request did come after the write: it is the child's, with the same model as the write turn.
    expect(result.requests[2]?.model).toBe(result.requests[1]?.model ?? "");
    expect(result.stderr).toMatch(/denied/i);
    expect(result.stderr).toContain("hello.txt");
  });

  test("--on-ask fail: the first write needing approval ends the run with exit 6", async () => {
    server.enqueue(...delegationTurns().slice(0, 2));
    const result = await run(["run", DELEGATION_GOAL, "--on-ask", "fail"]);
    expect(result.code).toBe(6);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("write_file");
    expect(existsSync(join(sandbox.workspace, "hello.txt"))).toBe(false);
    expect(result.requests).toHaveLength(2);
  });

  test("an --allow rule approves the write without --on-ask", async () => {
    server.enqueue(...delegationTurns());
    const result = await run(["run", DELEGATION_GOAL, "--allow", "write_file:*.txt"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello, world\n");
    expect(result.stderr).not.toMatch(/denied/i);
  });

  test("a project deny rule beats --on-ask allow", async () => {
    mkdirSync(join(sandbox.workspace, ".agent"));
    writeFileSync(join(sandbox.workspace, ".agent", "config.yaml"), "rules:\n  deny: ['write_file:*.txt']\n");
    server.enqueue(...delegationTurns("Policy forbids it.", "Not written."));
    const result = await run(["run", DELEGATION_GOAL, "--on-ask", "allow"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(sandbox.workspace, "hello.txt"))).toBe(false);
    expect(toolResultsOf(result.requests[2])[0]).toContain("deny rule write_file:*.txt");
    expect(result.stderr).toMatch(/denied/i);
  });
});

describe("--output stream-json and json", () => {
  test("a successful delegation run: init line, events from both depths, one result line with exit_code 0", async () => {
    server.enqueue(...delegationTurns());
    const result = await run(["run", DELEGATION_GOAL, "--on-ask", "allow", "--output", "stream-json"]);
    expect(result.code).toBe(0);
    const lines = checkStreamJson(result.stdout, result.code);
    const depths = new Set(lines.slice(1, -1).map((line) => line.depth));
    expect(depths).toEqual(new Set([0, 1]));
    const child = lines.find((line) => line.depth === 1);
    expect(child?.parent).toBe("root");
    const final = lines.at(-1);
    expect(final?.status).toBe("success");
    expect(final?.answer).toBe("Done.");
    expect(final?.finish_reason).toBe("stop");
    expect(final?.session_id).toBe(sessionIds(sandbox)[0] ?? "no session");
  });

  test("--max-turns 1 with a model that keeps calling tools: exit 5, finish_reason max_turns", async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-reader", args: { goal: "List the files" } }] },
      { toolCalls: [{ name: "glob", args: { pattern: "*" } }] },
      { text: "No files." },
    );
    const result = await run(["run", "Look around", "--max-turns", "1", "--output", "stream-json"]);
    expect(result.code).toBe(5);
    const lines = checkStreamJson(result.stdout, 5);
    expect(lines.at(-1)?.status).toBe("limit");
    expect(lines.at(-1)?.finish_reason).toBe("max_turns");
    // The root was never asked a second time: three requests, the last two the child's.
    expect(result.requests).toHaveLength(3);
  });

  test("--timeout 1 with a model that does not answer in time: exit 5, finish_reason timeout", async () => {
    // The model never finishes, so only --timeout can end the run, however loaded the machine.
    server.enqueue({ text: "never", hangAfterEvents: 0 });
    const result = await run(["run", "hi", "--timeout", "1", "--output", "json"]);
    // Under load the timeout may fire before the request is sent: that turn may stay unserved.
    server.clear();
    expect(result.code).toBe(5);
    expect(parseJsonLines(result.stdout)[0]).toMatchObject({
      type: "result",
      status: "limit",
      finish_reason: "timeout",
      exit_code: 5,
    });
  });

  test("a provider that refuses the key: exit 4 naming provider, model and status", async () => {
    server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const result = await run(["run", "hi", "--output", "stream-json"]);
    expect(result.code).toBe(4);
    const lines = checkStreamJson(result.stdout, 4);
    expect(lines.at(-1)).toMatchObject({ status: "error", finish_reason: "provider_error" });
    expect(result.stderr).toContain("anthropic");
    expect(result.stderr).toContain(result.requests[0]?.model ?? "no request");
    expect(result.stderr).toContain("401");
    // 401 is never retried.
    expect(result.requests).toHaveLength(1);
  });

  test("--output json prints the result object alone", async () => {
    server.enqueue(...delegationTurns());
    const result = await run(["run", DELEGATION_GOAL, "--on-ask", "allow", "--output", "json"]);
    expect(result.code).toBe(0);
    const lines = parseJsonLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      type: "result",
      status: "success",
      answer: "Done.",
      finish_reason: "stop",
      exit_code: 0,
      session_id: sessionIds(sandbox)[0] ?? "no session",
    });
  });
});

describe("record and replay", () => {
  test("--record writes a cassette without the key; --replay reruns it with no key and no network", async () => {
    server.enqueue(...delegationTurns());
    const cassette = join(sandbox.dir, "run.cassette.jsonl");
    const recorded = await run(["run", DELEGATION_GOAL, "--on-ask", "allow", "--record", cassette]);
    expect(recorded.code).toBe(0);
    expect(readFileSync(cassette, "utf8")).not.toContain(TEST_KEY);

    // Another workspace, no key, no base URL: the cassette alone answers.
    const other = join(sandbox.dir, "other");
    mkdirSync(other);
    const before = server.requests.length;
    const replayed = await runInProcess(["run", DELEGATION_GOAL, "--on-ask", "allow", "--replay", cassette], {
      env: sandbox.env(),
      cwd: other,
    });
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe("Done.\n");
    expect(readFileSync(join(other, "hello.txt"), "utf8")).toBe("Hello, world\n");
    expect(server.requests.length).toBe(before);
  });
});

describe("project agents and verification", () => {
  /** A project agent that may finish only when done.txt exists. */
  function writeCheckerSpec(): void {
    writeProjectSpec(
      sandbox,
      "checker.yaml",
      [
        "name: checker",
        "description: Answers, then proves done.txt exists.",
        "model: fast",
        "capabilities: [read_file]",
        "verify: ['test -f done.txt']",
        "system_prompt: Answer briefly.",
        "",
      ].join("\n"),
    );
  }

  test("a project agent whose verify command keeps failing ends with exit 1 (verify_failed)", async () => {
    writeCheckerSpec();
    server.enqueue({ text: "All done." }, { text: "Really done." }, { text: "Done, I promise." });
    // The user allows the verify command (it goes through the same gate as a model's exec call).
    const result = await run([
      "run",
      "Finish",
      "--agent",
      "checker",
      "--output",
      "json",
      "--allow",
      "exec:test -f done.txt",
    ]);
    expect(result.code).toBe(1);
    expect(parseJsonLines(result.stdout)[0]).toMatchObject({
      status: "failure",
      finish_reason: "verify_failed",
      exit_code: 1,
    });
    // The model was told which command failed before each retry.
    expect(JSON.stringify(result.requests[1]?.body)).toContain("test -f done.txt");
  });

  test("the same agent passes once its verify command succeeds: exit 0", async () => {
    writeCheckerSpec();
    writeFileSync(join(sandbox.workspace, "done.txt"), "yes\n");
    server.enqueue({ text: "All done." });
    const result = await run(["run", "Finish", "--agent", "checker", "--allow", "exec:test -f done.txt"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("All done.\n");
  });
});

describe("interrupts", () => {});

describe("sessions", () => {
  test("--resume with an unknown id exits 2 and creates no session", async () => {
    const result = await run(["run", "--resume", "20990101-000000-abcdef", "go on"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("20990101-000000-abcdef");
    expect(sessionIds(sandbox)).toEqual([]);
    expect(result.requests).toHaveLength(0);
  });

  test("--resume ID with a new goal continues the conversation in the same session", async () => {
    const firstGoal = "Remember the code word PINEAPPLE";
    server.enqueue({ text: "Noted: PINEAPPLE." });
    const first = await run(["run", firstGoal]);
    expect(first.code).toBe(0);
    const [id] = sessionIds(sandbox);
    expect(id).toBeDefined();

    const newGoal = "Now say the code word backwards";
    server.enqueue({ text: "ELPPAENIP" });
    const second = await run(["run", "--resume", id ?? "", newGoal]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe("ELPPAENIP\n");
    expect(sessionIds(sandbox)).toEqual([id ?? ""]);
    expect(second.requests).toHaveLength(1);
    const body = JSON.stringify(second.requests[0]?.body);
    expect(body).toContain(firstGoal);
    expect(body).toContain("Noted: PINEAPPLE.");
    expect(body).toContain(newGoal);
    expect(body.indexOf(firstGoal)).toBeLessThan(body.indexOf(newGoal));
    // The transcript holds both runs, the resumed one marked as such.
    const starts = transcriptRecords(onlyTranscriptText(sandbox)).filter((r) => r.kind === "session_start");
    expect(starts.map((start) => start.data.resumed === true)).toEqual([false, true]);
  });
});

describe("resume after a crash", () => {});

describe("secrets", () => {
  const SECRET_KEY = "sk-ant-secret-abcdefghijklmnop";
  // No known key shape: only the environment-value layer of the redactor can catch this one.
  const PLAIN_TOKEN = "plain-token-value-7f3a9c";

  test("a provider key never reaches the transcript or the output, even written into a file or echoed", async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-editor", args: { goal: `Store ${SECRET_KEY} in key.txt` } }] },
      {
        toolCalls: [
          {
            name: "write_file",
            args: { path: "key.txt", content: `key=${SECRET_KEY}\ntoken=${PLAIN_TOKEN}\n` },
          },
        ],
      },
      { toolCalls: [{ name: "exec", args: { command: "echo key=$ANTHROPIC_API_KEY; cat key.txt" } }] },
      { text: `Stored ${SECRET_KEY}.` },
      { text: `Done: ${SECRET_KEY} ${PLAIN_TOKEN}` },
    );
    const result = await run(
      ["run", "Store the key", "--on-ask", "allow", "--output", "stream-json"],
      anthropicEnv(sandbox, server, { ANTHROPIC_API_KEY: SECRET_KEY, MY_SERVICE_TOKEN: PLAIN_TOKEN }),
    );
    expect(result.code).toBe(0);
    // The tool did what the model asked; only what is recorded and shown is redacted.
    expect(readFileSync(join(sandbox.workspace, "key.txt"), "utf8")).toContain(SECRET_KEY);

    const transcript = onlyTranscriptText(sandbox);
    transcriptRecords(transcript);
    for (const secret of [SECRET_KEY, PLAIN_TOKEN]) {
      expect(transcript).not.toContain(secret);
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
    const records = transcriptRecords(transcript);
    const write = records.find((r) => r.kind === "tool_start" && r.data.tool === "write_file");
    expect(JSON.stringify(write?.data.args)).toContain("key=[REDACTED]\\ntoken=[REDACTED]");
    const execEnd = records.find(
      (r) => r.kind === "message" && JSON.stringify(r.data).includes('"toolName":"exec"'),
    );
    expect(JSON.stringify(execEnd?.data)).toContain("[REDACTED]");

    // exec's environment has no key, and the file content it printed reached the model redacted.
    const execResult = toolResultsOf(result.requests[3]).at(-1) ?? "";
    expect(execResult).toContain("key=\\n");
    expect(execResult).toContain("key=[REDACTED]");
    expect(execResult).not.toContain(SECRET_KEY);
    expect(execResult).not.toContain(PLAIN_TOKEN);
  });
  test("text mode shows no secret either: goal, delegation, child answer, provider error, final answer", async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-editor", args: { goal: `Store ${SECRET_KEY} and ${PLAIN_TOKEN}` } }] },
      { status: 401, errorMessage: `bad key ${SECRET_KEY} for ${PLAIN_TOKEN}` },
      { text: `Done: ${SECRET_KEY} ${PLAIN_TOKEN}` },
    );
    const result = await run(
      ["run", `Use ${PLAIN_TOKEN}`],
      anthropicEnv(sandbox, server, { ANTHROPIC_API_KEY: SECRET_KEY, MY_SERVICE_TOKEN: PLAIN_TOKEN }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done: [REDACTED] [REDACTED]\n");
    expect(result.stderr).toContain("401");
    for (const secret of [SECRET_KEY, PLAIN_TOKEN]) {
      expect(result.stderr).not.toContain(secret);
      expect(onlyTranscriptText(sandbox)).not.toContain(secret);
    }
  });
});

describe("usage and configuration errors", () => {
  // Each fails before the model is asked and before a session is created.
  afterEach(() => {
    expect(server.requests).toHaveLength(0);
    expect(sessionIds(sandbox)).toEqual([]);
  });

  test("no goal exits 2", async () => {
    const result = await run(["run"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no goal");
    expect(result.stdout).toBe("");
  });

  test("--max-turns abc exits 2", async () => {
    const result = await run(["run", "hi", "--max-turns", "abc"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--max-turns");
    expect(result.stderr).toContain("abc");
  });

  test("an unknown --agent exits 2 naming the known agents", async () => {
    const result = await run(["run", "hi", "--agent", "nobody"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("nobody");
    expect(result.stderr).toContain("code-editor");
  });

  test("a --cwd that does not exist exits 2", async () => {
    const missing = join(sandbox.dir, "missing");
    const result = await run(["run", "hi", "--cwd", missing]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--cwd ${missing}`);
  });

  test("no provider key exits 3 naming the variables", async () => {
    const result = await run(["run", "hi"], sandbox.env());
    expect(result.code).toBe(3);
    for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"]) {
      expect(result.stderr).toContain(name);
    }
  });

  test("a broken project spec the run uses exits 3 naming file and line", async () => {
    const file = writeProjectSpec(
      sandbox,
      "x.yaml",
      "name: x\ndescription: broken\ncapabilities: [read_file\nsystem_prompt: hi\n",
    );
    const result = await run(["run", "hi", "--agent", "x"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file}:4:`);
  });

  test("a spec the run reaches with an unresolvable model exits 3 with every error, once", async () => {
    const file = writeProjectSpec(
      sandbox,
      "fixer.yaml",
      "name: fixer\ndescription: fixes\nsystem_prompt: fix\nmodel: turbo\ncapabilities: [read_file, teleport]\nconstraints: { max_turns: lots }\n",
    );
    const result = await run(["run", "hi", "--agent", "fixer"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${file}:6: constraints.max_turns: expected a number`);
    expect(result.stderr).toContain(`${file}:5: capabilities[1]: "teleport" names neither a primitive`);
    expect(result.stderr).toContain(`${file}:4: model: expected a tier (fast, good, best, smart, auto)`);
    const validate = await run(["agents", "validate"]);
    expect(validate.code).toBe(3);
    expect(validate.stderr).toContain(`${file}:4: model: expected a tier (fast, good, best, smart, auto)`);
    expect(validate.stderr).toContain("3 errors in agent specs");
  });

  test("an --allow rule naming an unknown tool exits 2 naming the known tools", async () => {
    const result = await run(["run", "hi", "--allow", "exce:npm test"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--allow "exce:npm test" names a tool that does not exist (exce)');
    expect(result.stderr).toContain("known tools: read_file, write_file, edit_file, apply_patch, exec");
    expect(result.stderr).toContain("code-editor");
  });

  test("a config rule naming an unknown tool exits 3 naming the file", async () => {
    const file = join(sandbox.configDir, "agent", "config.yaml");
    mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
    writeFileSync(file, "rules:\n  deny: ['rn:*']\n");
    const result = await run(["run", "hi"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `${file}: deny: "rn:*" names a tool that does not exist (rn); known tools:`,
    );
  });
});

describe("--tier auto and --model auto", () => {
  test("--tier auto classifies the goal as the helper does, reports it, and the top agent uses that tier", async () => {
    server.enqueue({ text: "A plan." });
    const result = await run([
      "run",
      "Design the architecture of a multi-tenant billing service",
      "--tier",
      "auto",
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("agent: --tier auto chose best (");
    expect(result.requests[0]?.model).toBe(DEFAULT_TIER_MODELS.best.anthropic[0] ?? "");
  });

  test("--tier smart is best, as agent helper takes it", async () => {
    server.enqueue({ text: "Done." });
    const result = await run(["run", "Design the billing service", "--tier", "smart"]);
    expect(result.code).toBe(0);
    expect(result.requests[0]?.model).toBe(DEFAULT_TIER_MODELS.best.anthropic[0] ?? "");
  });

  test("--model auto on a simple goal chooses fast and says so", async () => {
    server.enqueue({ text: "Bonjour." });
    const result = await run(["run", "Translate hello to French", "--model", "auto"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("agent: --model auto chose fast (");
    expect(result.requests[0]?.model).toBe(DEFAULT_TIER_MODELS.fast.anthropic[0] ?? "");
  });

  test("a spec with model: auto is classified on each agent's own goal", async () => {
    writeProjectSpec(
      sandbox,
      "thinker.yaml",
      "name: thinker\ndescription: thinks\nsystem_prompt: think\nmodel: auto\ncapabilities: [read_file]\n",
    );
    server.enqueue({ text: "Proof." });
    const result = await run(["run", "Prove that the algorithm terminates, formally", "--agent", "thinker"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("agent: spec thinker: model: auto chose good (asks for a proof)");
    expect(result.requests[0]?.model).toBe(DEFAULT_TIER_MODELS.good.anthropic[0] ?? "");
  });
});

describe("a stalled run", () => {
  const readNotes: FakeTurn = { toolCalls: [{ name: "read_file", args: { path: "notes.txt" } }] };

  test("escalates once to the next tier, continuing the same conversation", async () => {
    writeFileSync(join(sandbox.workspace, "notes.txt"), "the answer is 42\n");
    server.enqueue(readNotes, readNotes, readNotes, { text: "42" });
    const result = await run([
      "run",
      "What is in notes.txt?",
      "--agent",
      "code-reader",
      "--tier",
      "fast",
      "--output",
      "json",
    ]);
    expect(result.code).toBe(0);
    const fast = DEFAULT_TIER_MODELS.fast.anthropic[0] ?? "";
    const good = DEFAULT_TIER_MODELS.good.anthropic[0] ?? "";
    expect(result.requests.map((r) => r.model)).toEqual([fast, fast, fast, good]);
    const escalated = JSON.stringify(result.requests[3]?.body);
    expect(escalated).toContain("the answer is 42");
    expect(escalated).toContain("You are repeating yourself");
    expect(escalated).toContain("now handed to a stronger model");
    expect(parseJsonLines(result.stdout)[0]).toMatchObject({
      status: "success",
      finish_reason: "stop",
      answer: "42",
      turns: 4,
    });
    const switched = transcriptRecords(onlyTranscriptText(sandbox)).find((r) => r.kind === "model_switch");
    expect(switched?.data).toMatchObject({ from: fast, to: good });
  });

  test("--no-fallback ends a stall with the forced answer instead", async () => {
    writeFileSync(join(sandbox.workspace, "notes.txt"), "the answer is 42\n");
    server.enqueue(readNotes, readNotes, readNotes);
    const result = await run([
      "run",
      "What is in notes.txt?",
      "--agent",
      "code-reader",
      "--tier",
      "fast",
      "--no-fallback",
      "--output",
      "json",
    ]);
    expect(result.code).toBe(0);
    expect(result.requests).toHaveLength(3);
    expect(parseJsonLines(result.stdout)[0]).toMatchObject({ status: "success", finish_reason: "stall" });
  });
});

describe("specs a run does not use", () => {
  test("a broken project spec nothing uses is a warning; the run goes on", async () => {
    const file = writeProjectSpec(
      sandbox,
      "x.yaml",
      "name: x\ndescription: broken\ncapabilities: [read_file\nsystem_prompt: hi\n",
    );
    server.enqueue({ text: "Hello." });
    const result = await run(["run", "hi"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hello.\n");
    expect(result.stderr).toContain(`agent: warning: ${file}:4:`);
    // root lists agents:*, which would offer x: the warning does not claim root cannot reach it.
    expect(result.stderr).toContain(
      "(skipped: root's agents:* would offer agent x, but it is invalid; this run goes on without it)",
    );
    expect(result.stderr).not.toContain("does not reach");
  });

  test("a misspelt field in a project spec: run's warning names the nearest known field (issue 21, item 10)", async () => {
    const file = writeProjectSpec(
      sandbox,
      "helper.yaml",
      "name: helper\ndescription: typo\nsystem_prompt: hi\ncapabilites: [read_file]\n",
    );
    server.enqueue({ text: "Hello." });
    const result = await run(["run", "hi"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hello.\n");
    expect(result.stderr).toContain(
      `agent: warning: ${file}:4: capabilites: unknown field; did you mean "capabilities"?`,
    );
    expect(result.stderr).toContain("root's agents:* would offer agent helper");
  });

  test("a broken spec only a non-wildcard agent could reach: the warning says it is out of reach", async () => {
    writeProjectSpec(sandbox, "x.yaml", "name: x\ndescription: broken\nsystem_prompt: hi\nmodle: fast\n");
    server.enqueue({ text: "Hello." });
    const result = await run(["run", "hi", "--agent", "code-reader"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("(skipped: code-reader does not reach agent x)");
  });

  test("a new project agent is offered to the built-in root", async () => {
    writeProjectSpec(
      sandbox,
      "translator.yaml",
      "name: translator\ndescription: Translates text files\nsystem_prompt: translate\nmodel: fast\ncapabilities: [read_file]\n",
    );
    server.enqueue({ text: "Hello." });
    const result = await run(["run", "hi"]);
    expect(result.code).toBe(0);
    const tools =
      (result.requests[0]?.body as { tools?: { name: string; description: string }[] } | undefined)?.tools ??
      [];
    expect(tools.map((t) => t.name)).toEqual(["code-reader", "code-editor", "command-runner", "translator"]);
    expect(tools.find((t) => t.name === "translator")?.description).toBe("Translates text files");
  });
});
