/**
 * The GitHub Action end to end: action.yml's steps run as the runner runs them (composite-runner.ts:
 * GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP, a workspace, inputs mapped through the steps' env)
 * against the fake LLM server, with this checkout as `github.action_path`: the real bin/agent, the real
 * Anthropic SDK. Checked: the outputs and the job summary, a multi-line hostile answer kept whole in
 * GITHUB_OUTPUT, inputs that are never run by a shell, a non-zero exit failing the step, a denial listed
 * with its rule.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { marked } from "marked";
import { type CompositeRun, runCompositeAction } from "../../action/composite-runner.ts";
import type { FakeLlmServer, FakeRequest } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServerAndSandbox, TEST_KEY } from "../support.ts";

const ACTION_PATH = resolve(import.meta.dir, "..", "..", "..");

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

/** Runs the action with `with` (the key and base URL of the fake server added). */
function runAction(inputs: Record<string, string>): Promise<CompositeRun> {
  return runCompositeAction({
    actionPath: ACTION_PATH,
    workspace: sandbox.workspace,
    with: { "anthropic-api-key": TEST_KEY, "anthropic-base-url": server.anthropicBaseUrl, ...inputs },
    // The job's environment: no provider variable of its own, so the keys can only come from the inputs.
    env: sandbox.env({ PATH: `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}` }),
    uses: {
      "oven-sh/setup-bun": {},
      "actions/cache/restore": { "cache-hit": "true" },
      "actions/cache/save": {},
    },
  });
}

/** The text of every user message a request sent. */
function userText(request: FakeRequest | undefined): string {
  const body = request?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  return JSON.stringify((body?.messages ?? []).filter((m) => m.role === "user"));
}

const runStep = (run: CompositeRun) => run.steps.find((s) => s.step.id === "run");

describe("the GitHub Action", () => {
  test("sets answer, status, exit-code, cost-usd and session-file, and writes the job summary", async () => {
    server.enqueue({ text: "All tests pass.", usage: { input: 1200, output: 300 } });
    const run = await runAction({ prompt: "Check the tests", "output-file": "out/result.json" });
    expect(run.failed).toBe(false);
    // The cache key's hash is bun.lock's sha256; the install was skipped on the (stand-in) cache hit.
    const lock = createHash("sha256")
      .update(readFileSync(join(ACTION_PATH, "bun.lock")))
      .digest("hex");
    expect(run.steps.find((s) => s.step.id === "lock")?.outputs).toEqual({ hash: lock });
    expect(run.steps.map((s) => s.conclusion)).toEqual([
      "success",
      "success",
      "success",
      "skipped",
      "skipped",
      "success", // bubblewrap: bwrap works here, nothing to install
      "success",
    ]);
    expect(run.steps.find((s) => s.step.id === "bubblewrap")?.stdout).toBe("agent: bubblewrap works\n");
    const result = JSON.parse(readFileSync(join(sandbox.workspace, "out", "result.json"), "utf8"));
    expect(result).toMatchObject({ type: "result", status: "success", finish_reason: "stop", exit_code: 0 });
    expect(result.usage.cost_usd).toBeGreaterThan(0);
    expect(run.outputs).toEqual({
      answer: "All tests pass.",
      status: "success",
      "exit-code": "0",
      "cost-usd": result.usage.cost_usd.toFixed(6),
      "session-file": join(sandbox.sessionsDir, `${result.session_id}.jsonl`),
    });
    expect(existsSync(run.outputs["session-file"] ?? "")).toBe(true);
    expect(userText(server.requests[0])).toContain("Check the tests");

    const html = await marked.parse(run.summary, { gfm: true });
    expect(html).toContain("<h3>agent run: success</h3>");
    expect(html).toContain("<td>stop</td>");
    expect(html).toContain("All tests pass.");
    // Usage per agent: the root's row and the total, with the run's cost.
    const root = result.usage.agents[0];
    expect(html).toContain(
      `<td>${root.agent}</td>\n<td>${root.model}</td>\n<td>${root.input_tokens}</td>\n<td>${root.output_tokens}</td>`,
    );
    expect(html).toContain(`<td>total</td>`);
    expect(html.match(new RegExp(result.usage.cost_usd.toFixed(6).replace(".", "\\."), "g"))?.length).toBe(3);
  });

  test("a multi-line answer that looks like outputs and delimiters stays one output, and inert in the summary", async () => {
    const answer = [
      "Done.",
      "status=hacked",
      "EOF",
      "ghadelimiter_00000000-0000-0000-0000-000000000000",
      "exit-code<<X",
      "<img src=x onerror=alert(1)> [click](https://example.com/) ```",
      "| a | b |",
    ].join("\n");
    server.enqueue({ text: answer });
    const run = await runAction({ prompt: "Say it" });
    expect(run.failed).toBe(false);
    expect(run.outputs.answer).toBe(answer);
    expect(run.outputs.status).toBe("success");
    expect(run.outputs["exit-code"]).toBe("0");
    const html = await marked.parse(run.summary, { gfm: true });
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<a ");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });

  test("inputs are never run by a shell: $(…), backticks and quotes in the prompt, rules and file names", async () => {
    const hostile = `$(touch pwned-1) \`touch pwned-2\` "; touch pwned-3; echo " '; touch pwned-4; '`;
    server.enqueue({ text: "ok" });
    const run = await runAction({
      prompt: hostile,
      allow: "exec:$(touch pwned-5)\nedit_file:`touch pwned-6`",
      model: '"; touch pwned-7; "',
    });
    // agent itself refuses the model value (no such provider): a usage error naming it, after nothing ran.
    expect(run.failed).toBe(true);
    expect(run.outputs).toMatchObject({ status: "error", "exit-code": "2" });
    expect(run.summary).toContain(String.raw`cannot tell which provider serves \"\"\; touch pwned\-7\; \"\"`);
    const ran = readdirSync(sandbox.workspace).concat(
      readdirSync(ACTION_PATH),
      readdirSync(dirname(sandbox.workspace)),
    );
    expect(ran.filter((name) => name.startsWith("pwned"))).toEqual([]);
    expect(server.requests).toEqual([]);
    server.clear();

    server.enqueue({ text: "ok" });
    const again = await runAction({
      prompt: hostile,
      allow: "exec:$(touch pwned-5)\nedit_file:`touch pwned-6`",
    });
    expect(again.failed).toBe(false);
    // The goal reached the model exactly as written.
    expect(userText(server.requests.at(-1))).toContain(JSON.stringify(hostile).slice(1, -1));
    const after = readdirSync(sandbox.workspace).concat(readdirSync(dirname(sandbox.workspace)));
    expect(after.filter((name) => name.startsWith("pwned"))).toEqual([]);
  });

  test("prompt-file: the goal is the file's text, passed without a shell", async () => {
    writeFileSync(join(sandbox.workspace, "task.md"), "Fix it; $(touch pwned-8)\nsecond line\n");
    server.enqueue({ text: "fixed" });
    const run = await runAction({ "prompt-file": "task.md" });
    expect(run.outputs.answer).toBe("fixed");
    expect(userText(server.requests[0])).toContain("Fix it; $(touch pwned-8)\\nsecond line");
    expect(existsSync(join(sandbox.workspace, "pwned-8"))).toBe(false);
  });

  test("a non-zero exit fails the step, with the exit code and status as outputs and in the summary", async () => {
    server.enqueue({ toolCalls: [{ name: "read_file", args: { path: "a.txt" } }] });
    const run = await runAction({ prompt: "Read a.txt", "max-turns": "1" });
    expect(run.failed).toBe(true);
    expect(runStep(run)?.conclusion).toBe("failure");
    expect(runStep(run)?.exitCode).toBe(5);
    expect(run.outputs).toMatchObject({ status: "limit", "exit-code": "5" });
    expect(runStep(run)?.stdout).toContain("::error title=agent::agent run exited 5");
    const html = await marked.parse(run.summary, { gfm: true });
    expect(html).toContain("<h3>agent run: limit</h3>");
    expect(html).toContain("<td>max_turns</td>");
  });

  test("missing inputs fail the step with exit code 2 and name the input", async () => {
    const run = await runAction({});
    expect(run.failed).toBe(true);
    expect(run.outputs).toMatchObject({ status: "error", "exit-code": "2", answer: "" });
    expect(run.summary).toContain("input prompt \\(or prompt\\-file\\) is required");
    expect(server.requests).toEqual([]);
  });

  test("a denial appears in the summary with the rule that decided it and the --allow rule to paste", async () => {
    server.enqueue(
      { toolCalls: [{ name: "code-editor", args: { goal: "Create hello.py and run it" } }] },
      {
        toolCalls: [
          { name: "write_file", args: { path: "hello.py", content: "print('hello')\n" } },
          { name: "exec", args: { command: "python3 hello.py" } },
        ],
      },
      { text: "Neither was allowed." },
      { text: "Nothing was created." },
    );
    const run = await runAction({ prompt: "Create hello.py and run it", deny: "exec:python3*" });
    expect(run.failed).toBe(false);
    expect(existsSync(join(sandbox.workspace, "hello.py"))).toBe(false);
    const html = await marked.parse(run.summary, { gfm: true });
    expect(html).toContain("Denials (2)");
    expect(html).toContain("<code>write_file</code> <code>hello.py</code>");
    expect(html).toContain("To allow it: <code>--allow write_file:hello.py</code>");
    expect(html).toContain("<code>exec</code> <code>python3 hello.py</code>");
    expect(html).toContain("refused by rule <code>exec:python3*</code>");
    expect(html).toContain("No --allow rule lets it through.");
  });
});
