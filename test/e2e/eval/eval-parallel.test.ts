/**
 * `agent eval -j 4` against the fake LLM server: four tasks run at once, each in its own workspace copy
 * and with its own transcript. Concurrency is proven by events, not time: every task's first model turn
 * is held by the server until all four first requests have arrived, which can only happen when the four
 * runs are in flight together. One task's workspace is a git ref (a tag behind the repository's HEAD).
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EvalReport } from "../../../src/cli/eval/report/eval-report.ts";
import { anthropicEnv, freshServerAndSandbox, spawnAgent, toolResultsOf, waitFor } from "../support.ts";

// Each test starts several agent processes; on a loaded machine that takes a while (waits end at events).
setDefaultTimeout(120_000);

const fixture = freshServerAndSandbox();
const IDS = ["t1", "t2", "t3", "t4"];

function git(cwd: string, ...args: string[]): void {
  const result = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd });
  if (result.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.toString()}`);
}

/** Three fixture folders and a repository whose tag v1 holds t4's fixture (HEAD has moved on). */
function writeSuite(root: string): string {
  for (const id of IDS.slice(0, 3)) {
    mkdirSync(join(root, "fixtures", id), { recursive: true });
    writeFileSync(join(root, "fixtures", id, "name.txt"), `${id}\n`);
  }
  const repo = join(root, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q");
  writeFileSync(join(repo, "name.txt"), "t4\n");
  git(repo, "add", "name.txt");
  git(repo, "commit", "-qm", "v1");
  git(repo, "tag", "v1");
  writeFileSync(join(repo, "name.txt"), "later\n");
  git(repo, "commit", "-qam", "later");
  const task = (id: string, workspace: string) =>
    [
      `  - id: ${id}`,
      `    goal: "Say what name.txt holds (task ${id})."`,
      `    workspace: ${workspace}`,
      `    checks: ["grep -qx ${id} name.txt"]`,
    ].join("\n");
  const suite = join(root, "suite.yaml");
  writeFileSync(
    suite,
    [
      "defaults:",
      "  model: anthropic:claude-haiku-5-5",
      "  agent: code-reader",
      "tasks:",
      ...IDS.slice(0, 3).map((id) => task(id, `fixtures/${id}`)),
      task("t4", "{git: repo, ref: v1}"),
      "",
    ].join("\n"),
  );
  return suite;
}

test("-j 4 runs four tasks at once without their workspaces or transcripts mixing", async () => {
  // Four processes start at once on a shared machine: the wait below is bounded generously (it ends at the event).
  const { server, sandbox } = fixture;
  const suite = writeSuite(sandbox.dir);
  let release = () => {};
  const allArrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  for (const _ of IDS)
    server.enqueue({ toolCalls: [{ name: "read_file", args: { path: "name.txt" } }], holdUntil: allArrived });
  for (const _ of IDS) server.enqueue({ text: "It holds a task id." });

  const run = spawnAgent(["eval", suite, "-j", "4", "-o", "json", "--out", join(sandbox.dir, "out")], {
    env: anthropicEnv(sandbox, server),
    cwd: sandbox.dir,
  });
  try {
    // No first turn is answered before all four runs have asked for theirs.
    await waitFor(() => server.requests.length >= 4, "the first request of all four tasks", 60_000);
    expect(server.requests).toHaveLength(4);
  } finally {
    release();
  }
  const result = await run.done;
  expect(result.stderr).not.toContain("internal error");
  expect(result.code).toBe(0);
  const report = JSON.parse(result.stdout) as EvalReport;
  expect(report.tasks.map((task) => [task.id, task.passed])).toEqual(IDS.map((id) => [id, true]));

  // Each second request carries its own task's goal and the name.txt of its own workspace copy.
  const second = server.requests.slice(4);
  expect(second).toHaveLength(4);
  const pairs = second.map((request) => {
    const body = request.body as { messages: { content: unknown }[] };
    const goal = JSON.stringify(body.messages[0]?.content);
    const id = /\(task (t\d)\)/.exec(goal)?.[1];
    return [id, toolResultsOf(request).join("")];
  });
  for (const [id, toolResult] of pairs) {
    // read_file numbers its lines: `1<TAB>t2`.
    expect(toolResult).toContain(`\\t${id}`);
    for (const other of IDS.filter((x) => x !== id)) expect(toolResult).not.toContain(`\\t${other}`);
  }
  expect(pairs.map(([id]) => id).sort()).toEqual(IDS);

  // Four transcripts, in four task folders, each holding its own goal only.
  const transcripts = report.tasks.map((task) => task.transcript ?? "");
  expect(new Set(transcripts).size).toBe(4);
  for (const [i, task] of report.tasks.entries()) {
    expect(transcripts[i]).toStartWith(join(sandbox.dir, "out", task.id, "state"));
    const text = readFileSync(transcripts[i] as string, "utf8");
    expect(text).toContain(`(task ${task.id})`);
    for (const other of IDS.filter((x) => x !== task.id)) expect(text).not.toContain(`(task ${other})`);
  }
});

test("checks run in the task's sandbox with the minimal environment: no key, the answer readable, nothing written outside", async () => {
  const { server, sandbox } = fixture;
  mkdirSync(join(sandbox.dir, "fixture"));
  const outside = "/etc/agent-eval-check-escape";
  const suite = join(sandbox.dir, "suite.yaml");
  writeFileSync(
    suite,
    [
      "tasks:",
      "  - id: sandboxed",
      "    goal: Say hi.",
      "    model: anthropic:claude-haiku-5-5",
      "    workspace: fixture",
      "    checks:",
      "      - name: no key\n        run: '[ -z \"$ANTHROPIC_API_KEY\" ]'",
      "      - name: answer readable\n        run: 'grep -qx Hi. \"$AGENT_EVAL_ANSWER\"'",
      "      - name: workspace writable\n        run: touch made-by-check",
      `      - name: outside read-only\n        run: '! touch ${outside}'`,
      "",
    ].join("\n"),
  );
  server.enqueue({ text: "Hi." });
  const run = await spawnAgent(["eval", suite, "-o", "json", "--out", join(sandbox.dir, "out")], {
    env: anthropicEnv(sandbox, server),
    cwd: sandbox.dir,
  }).done;
  const report = JSON.parse(run.stdout) as EvalReport;
  expect(report.tasks[0]?.checks.map((check) => [check.name, check.passed])).toEqual([
    ["no key", true],
    ["answer readable", true],
    ["workspace writable", true],
    ["outside read-only", true],
  ]);
  expect(run.code).toBe(0);
  expect(Bun.file(outside).size).toBe(0);
});

test("SIGTERM stops the running task (its run ends interrupted), starts no other, removes the workspace and exits 130", async () => {
  const { server, sandbox } = fixture;
  mkdirSync(join(sandbox.dir, "fixture"));
  const suite = join(sandbox.dir, "suite.yaml");
  const tasks = ["sigterm-first", "sigterm-second"].map((id) =>
    [`  - id: ${id}`, "    goal: Wait.", "    workspace: fixture"].join("\n"),
  );
  writeFileSync(
    suite,
    ["defaults:", "  model: anthropic:claude-haiku-5-5", "tasks:", ...tasks, ""].join("\n"),
  );
  // The first task's model never answers: the run is in flight until the signal.
  server.enqueue({ holdUntil: new Promise(() => {}) });
  // Its own temp folder: the machine's /tmp may hold other suites' workspaces (os.tmpdir reads TMPDIR).
  const temp = join(sandbox.dir, "tmp");
  mkdirSync(temp);
  const run = spawnAgent(["eval", suite, "-j", "1", "--out", join(sandbox.dir, "out")], {
    env: anthropicEnv(sandbox, server, { TMPDIR: temp }),
    cwd: sandbox.dir,
  });
  await waitFor(() => server.requests.length === 1, "the first task's model request", 60_000);
  const workspaces = () => readdirSync(temp).filter((name) => name.startsWith("agent-eval-sigterm-"));
  expect(workspaces()).toHaveLength(1);
  run.proc.kill("SIGTERM");
  const result = await run.done;
  expect(result.code).toBe(130);
  expect(result.stderr).toContain("✗ sigterm-first");
  expect(result.stderr).toContain("agent: interrupted: 1 of the suite's tasks ran");
  expect(result.stderr).not.toContain("sigterm-second");
  expect(server.requests).toHaveLength(1);
  expect(workspaces()).toEqual([]);
  const runResult = JSON.parse(
    readFileSync(join(sandbox.dir, "out", "sigterm-first", "result.json"), "utf8"),
  );
  expect(runResult).toMatchObject({ status: "interrupted", exit_code: 130 });
});
