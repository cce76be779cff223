/**
 * `agent run` as a process without a terminal: bin/agent spawned with pipes only, against the fake LLM
 * server, in a temp workspace with temp HOME / XDG directories. Only what is the process's own is here:
 * stdout holding exactly the answer (progress on stderr), the exit code and the one JSON result on a
 * failing exit, signals, and a run killed mid-write. Everything else `agent run` does is checked in the
 * test process (test/cli/run/run-headless.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { checkStreamJson, DELEGATION_GOAL, delegationTurns } from "../../support/run-scripts.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  freshServerAndSandbox,
  onlyTranscriptText,
  processRunning,
  runAgentIn,
  sessionIds,
  spawnAgent,
  toolResultsOf,
  transcriptRecords,
  unansweredToolCalls,
  waitFor,
} from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

/** Starts a run and notes which of the server's requests belong to it. */
async function run(args: string[], env = anthropicEnv(sandbox, server)) {
  const first = server.requests.length;
  const result = await runAgentIn(sandbox, args, env);
  return { ...result, requests: server.requests.slice(first) };
}

describe("stdout holds exactly the answer, progress goes to stderr", () => {
  test("--on-ask allow: root delegates to code-editor, the file is written, stdout is the answer", async () => {
    server.enqueue(...delegationTurns());
    const result = await run(["run", DELEGATION_GOAL, "--on-ask", "allow"]);
    expect(result.stderr).toContain("write_file");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done.\n");
    expect(readFileSync(join(sandbox.workspace, "hello.txt"), "utf8")).toBe("Hello, world\n");
    // Root, child, child, root: the child asked with its own (cheaper) model.
    expect(result.requests).toHaveLength(4);
    expect(result.requests[1]?.model).not.toBe(result.requests[0]?.model);
    const records = transcriptRecords(onlyTranscriptText(sandbox));
    expect(records.at(-1)?.kind).toBe("session_end");
    expect(records.at(-1)?.data.status).toBe("success");
  });
});

describe("a failing exit: its code, and one JSON result saying it", () => {
  test("an --on-ask fail run: the result line says exit_code 6, as the process does", async () => {
    server.enqueue(...delegationTurns().slice(0, 2));
    const result = await run(["run", DELEGATION_GOAL, "--on-ask", "fail", "--output", "stream-json"]);
    expect(result.code).toBe(6);
    const lines = checkStreamJson(result.stdout, 6);
    expect(lines.at(-1)?.status).toBe("error");
    expect(lines.at(-1)?.finish_reason).toBe("approval_needed");
  });
});

describe("interrupts", () => {
  test("SIGINT during a slow model turn exits 130 within 2 s and leaves a whole transcript", async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-reader", args: { goal: "Read everything" } }] },
      { text: "too late", delayMs: 10_000 },
    );
    const first = server.requests.length;
    const running = spawnAgent(["run", "Read the workspace"], {
      env: anthropicEnv(sandbox, server),
      cwd: sandbox.workspace,
    });
    // The child's (slow) request has reached the server: the run is waiting on the model.
    await waitFor(() => server.requests.length >= first + 2, "the child's model request");
    const signalledAt = performance.now();
    running.proc.kill("SIGINT");
    const result = await running.done;
    const elapsed = performance.now() - signalledAt;
    expect(result.code).toBe(130);
    expect(elapsed).toBeLessThanOrEqual(2_000);
    expect(result.stderr).toContain("interrupting (press Ctrl-C again to force)");

    const records = transcriptRecords(onlyTranscriptText(sandbox));
    const ends = records.filter((record) => record.kind === "session_end");
    expect(ends).toHaveLength(1);
    expect(records.at(-1)).toBe(ends[0]);
    expect(ends[0]?.data.status).toBe("interrupted");
    expect(ends[0]?.data.finishReason).toBe("aborted");
    // The open delegation was closed: root's code-reader call has its (aborted) result.
    const childEnd = records.find((record) => record.kind === "act_end");
    expect(childEnd?.data.status).toBe("interrupted");
    expect(unansweredToolCalls(records)).toEqual([]);
  });

  test("SIGINT during a running exec kills the command, closes every call, and the result says 130", async () => {
    const marker = `sleep 29.${process.pid}`;
    server.enqueue(
      { toolCalls: [{ name: "command-runner", args: { goal: "Run the slow command" } }] },
      { toolCalls: [{ name: "exec", args: { command: `${marker}; echo late > late.txt` } }] },
    );
    const running = spawnAgent(["run", "Run it", "--on-ask", "allow", "--output", "stream-json"], {
      env: anthropicEnv(sandbox, server),
      cwd: sandbox.workspace,
    });
    await waitFor(() => processRunning(marker), "the exec command to start");
    const signalledAt = performance.now();
    running.proc.kill("SIGINT");
    const result = await running.done;
    const elapsed = performance.now() - signalledAt;
    expect(result.code).toBe(130);
    expect(elapsed).toBeLessThanOrEqual(2_000);
    const lines = checkStreamJson(result.stdout, 130);
    expect(lines.at(-1)).toMatchObject({ status: "interrupted", finish_reason: "aborted" });
    // exec killed its process group: the command does not outlive the run.
    await waitFor(() => !processRunning(marker), "the exec command to be gone", 5_000);
    expect(existsSync(join(sandbox.workspace, "late.txt"))).toBe(false);

    const records = transcriptRecords(onlyTranscriptText(sandbox));
    expect(records.at(-1)?.kind).toBe("session_end");
    expect(records.at(-1)?.data.status).toBe("interrupted");
    expect(unansweredToolCalls(records)).toEqual([]);
    const execResult = records.find(
      (r) => r.kind === "message" && (r.data.message as { toolName?: string }).toolName === "exec",
    );
    expect(JSON.stringify(execResult?.data)).toContain("aborted");
  });
});

describe("resume after a crash", () => {
  test("a killed run leaves a torn line and an open call; --resume skips the one and closes the other", async () => {
    const firstGoal = "Read everything about ALPHA";
    server.enqueue(
      { toolCalls: [{ name: "code-reader", args: { goal: "Read" } }] },
      { text: "never sent", delayMs: 10_000 },
    );
    const crashed = spawnAgent(["run", firstGoal], {
      env: anthropicEnv(sandbox, server),
      cwd: sandbox.workspace,
    });
    await waitFor(() => server.requests.length >= 2, "the child's model request");
    crashed.proc.kill("SIGKILL");
    await crashed.done;
    const [id] = sessionIds(sandbox);
    if (id === undefined) throw new Error("the killed run left no session");
    appendFileSync(join(sandbox.sessionsDir, `${id}.jsonl`), '{"kind":"message","agent":"ro');

    server.enqueue({ text: "Resumed." });
    const result = await run(["run", "--resume", id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Resumed.\n");
    expect(result.stderr).toContain("torn last record");
    const body = JSON.stringify(result.requests[0]?.body);
    expect(body).toContain(firstGoal);
    expect(body).toContain("Continue where you left off.");
    // The delegation cut off by the crash has its result, so the provider accepts the history.
    expect(toolResultsOf(result.requests[0])).toEqual([expect.stringContaining("aborted")]);
    // The resumed session is appended to the same, now whole, transcript.
    const records = transcriptRecords(onlyTranscriptText(sandbox));
    expect(records.at(-1)?.kind).toBe("session_end");
    expect(records.at(-1)?.data.status).toBe("success");
  });
});
