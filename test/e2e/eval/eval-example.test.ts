/**
 * `agent eval` through bin/agent on the shipped example suite, replayed offline from its cassettes with
 * no key at all: the expected pass/fail per task, valid JUnit (parsed by fast-xml-parser), shards that
 * merge to the whole, --compare against an earlier report, the fixtures left untouched, and a bad
 * suite's FILE:LINE: field errors with exit 3.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { EvalReport, TaskReport } from "../../../src/cli/eval/report/eval-report.ts";
import { makeSandbox, type Sandbox } from "../../cli/run-agent.ts";
import { spawnAgent } from "../support.ts";

const EXAMPLE = resolve(import.meta.dir, "../../../examples/eval");
const SUITE = join(EXAMPLE, "suite.yaml");
const CASSETTES = join(EXAMPLE, "cassettes");
const EXPECTED = {
  "fix-failing-test": true,
  "add-cli-flag": true,
  "rename-across-files": false,
  "explain-function": true,
  "refuse-destructive": true,
};

// Each test starts several agent processes; on a loaded machine that takes a while (waits end at events).
setDefaultTimeout(120_000);

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = makeSandbox();
});
afterAll(() => sandbox.cleanup());

/**
 * bin/agent with only PATH, HOME and the XDG folders: no provider key, no base URL. The example suite
 * sets allow rules, so its runs pass --trust-suite (docs/eval.md "Trust").
 */
function agent(args: string[]) {
  return spawnAgent(args, { env: sandbox.env(), cwd: sandbox.dir }).done;
}

function parseReport(stdout: string): EvalReport {
  return JSON.parse(stdout) as EvalReport;
}

function passMap(report: EvalReport): Record<string, boolean> {
  return Object.fromEntries(report.tasks.map((task) => [task.id, task.passed]));
}

/** What must be equal between two runs of the same cassettes (timings, paths and ids differ). */
function stable(task: TaskReport) {
  const { duration_ms: _d, transcript: _t, session_id: _s, checks, ...rest } = task;
  return { ...rest, checks: checks.map(({ duration_ms: _c, ...check }) => check) };
}

describe("agent eval examples/eval/suite.yaml --replay", () => {
  let whole: EvalReport;

  test("replays offline with the expected pass/fail per task; JSON report and valid JUnit", async () => {
    const junit = join(sandbox.dir, "junit.xml");
    // `--replay` alone: the cassettes/ folder beside the suite.
    const run = await agent([
      "eval",
      SUITE,
      "--trust-suite",
      "--replay",
      "-o",
      "json",
      "--junit",
      junit,
      "-j",
      "2",
    ]);
    expect(run.code).toBe(1);
    whole = parseReport(run.stdout);
    expect(whole).toMatchObject({ type: "eval_report", schema_version: 1, mode: "replay", name: "example" });
    expect(passMap(whole)).toEqual(EXPECTED);
    expect(whole.totals).toMatchObject({ tasks: 5, passed: 4, failed: 1, cost_usd: 0, denials: 0 });
    expect(whole.totals.turns).toBe(14);
    for (const task of whole.tasks) {
      expect(task.status).toBe("success");
      expect(task.recorded_cost_usd).toBeGreaterThan(0);
      expect(task.transcript).toBeString();
    }
    const rename = whole.tasks.find((task) => task.id === "rename-across-files");
    expect(rename?.failures).toEqual([
      "check `no old name left` exited 1",
      "check `new name in all three files` exited 1",
    ]);
    expect(rename?.checks[0]?.output).toContain("bin/welcome.sh:3:");
    const explain = whole.tasks.find((task) => task.id === "explain-function");
    expect(JSON.parse(explain?.answer ?? "")).toMatchObject({ function: "slugify" });
    // Progress on stderr, one line per task.
    expect(run.stderr).toContain("✗ rename-across-files (3 turns");

    const xml = readFileSync(junit, "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml) as {
      testsuites: {
        testsuite: { tests: string; failures: string; testcase: { name: string; failure?: unknown }[] };
      };
    };
    const suite = parsed.testsuites.testsuite;
    expect([suite.tests, suite.failures]).toEqual(["5", "1"]);
    expect(Object.fromEntries(suite.testcase.map((c) => [c.name, c.failure === undefined]))).toEqual(
      EXPECTED,
    );
  });

  test("the fixtures are never the workspace: they are unchanged after the runs", () => {
    expect(readFileSync(join(EXAMPLE, "fixtures/fix-test/calc.sh"), "utf8")).toContain("$(($1 - $2))");
    expect(readFileSync(join(EXAMPLE, "fixtures/rename/lib/names.sh"), "utf8")).toContain("get_usr_name()");
    expect(readFileSync(join(EXAMPLE, "fixtures/add-flag/greet.sh"), "utf8")).not.toContain("--shout");
  });

  test("the table: a row per task, the total and why the failed task failed", async () => {
    const run = await agent(["eval", SUITE, "--trust-suite", "--replay", CASSETTES, "--shard", "3/5"]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^task\s+result\s+finish\s+turns\s+tokens\s+cost \$\s+time s\s+denials$/);
    // A replay spends nothing: the cost column shows the recorded cost, marked `rec`, and a note says so.
    expect(lines[1]).toMatch(/^rename-across-files\s+FAIL\s+stop\s+3\s+3030\s+0\.0004 rec\s+[\d.]+\s+0$/);
    expect(lines[2]).toMatch(/^total\s+0\/1\s+3\s+3030\s+0\.0004 rec\s/);
    expect(lines[4]).toBe("rec: what the recorded run cost; replaying it spent nothing (recorded_cost_usd)");
    expect(lines.slice(6)).toEqual([
      "rename-across-files: check `no old name left` exited 1",
      "rename-across-files: check `new name in all three files` exited 1",
    ]);
  });

  test("--shard 1/2 and 2/2 merged equal the whole run, in JSON and JUnit", async () => {
    const files = [join(sandbox.dir, "shard1.json"), join(sandbox.dir, "shard2.json")];
    const shards = await Promise.all(
      ["1/2", "2/2"].map((shard) =>
        agent([
          "eval",
          SUITE,
          "--trust-suite",
          "--replay",
          CASSETTES,
          "--shard",
          shard,
          "-o",
          "json",
          "-j",
          "1",
        ]),
      ),
    );
    for (const [i, shard] of shards.entries()) writeFileSync(files[i] as string, shard.stdout);
    const [one, two] = shards.map((shard) => parseReport(shard.stdout));
    expect(one?.tasks.map((task) => task.id)).toEqual([
      "fix-failing-test",
      "rename-across-files",
      "refuse-destructive",
    ]);
    expect(two?.tasks.map((task) => task.id)).toEqual(["add-cli-flag", "explain-function"]);
    expect(one?.shard).toEqual({ index: 1, count: 2 });
    const junit = join(sandbox.dir, "merged.xml");
    const merged = await agent(["eval", "merge", ...files, "-o", "json", "--junit", junit]);
    expect(merged.code).toBe(1);
    const report = parseReport(merged.stdout);
    expect(report.tasks.map(stable)).toEqual(whole.tasks.map(stable));
    const { task_duration_ms: _a, ...totals } = report.totals;
    const { task_duration_ms: _b, ...wholeTotals } = whole.totals;
    expect(totals).toEqual(wholeTotals);
    expect(XMLValidator.validate(readFileSync(junit, "utf8"))).toBe(true);
  });

  test("--compare prints the difference per task and in total", async () => {
    const old = structuredClone(whole);
    const rename = old.tasks.find((task) => task.id === "rename-across-files") as TaskReport;
    rename.passed = true;
    rename.turns = 2;
    old.totals.passed = 5;
    old.totals.turns = 13;
    const oldFile = join(sandbox.dir, "old.json");
    writeFileSync(oldFile, JSON.stringify(old));
    const run = await agent([
      "eval",
      SUITE,
      "--trust-suite",
      "--replay",
      CASSETTES,
      "--shard",
      "3/5",
      "--compare",
      oldFile,
    ]);
    expect(run.code).toBe(1);
    const text = run.stdout.slice(run.stdout.indexOf("compared with"));
    expect(text).toContain(`compared with ${oldFile}:`);
    expect(text).toMatch(
      /rename-across-files\s+pass -> FAIL\s+turns \+1\s+tokens ±0\s+cost ±0\.0000\s+time [+-±][\d.]+ s\s+\(broken\)/,
    );
    // The other four ran in the old report only.
    expect(text).toMatch(/fix-failing-test\s+pass -> -\s+.*\(removed\)/);
    expect(text).toMatch(/total\s+passed 5 -> 0\s+turns -10/);
    const json = await agent([
      "eval",
      SUITE,
      "--trust-suite",
      "--replay",
      CASSETTES,
      "--shard",
      "3/5",
      "--compare",
      oldFile,
      "-o",
      "json",
    ]);
    const report = JSON.parse(json.stdout) as { comparison: { tasks: { id: string; change: string }[] } };
    expect(report.comparison.tasks.find((task) => task.id === "rename-across-files")?.change).toBe("broken");
  });
});

describe("agent eval --replay with the user's own setup installed", () => {
  test("a user skill, agent spec and MCP server change nothing: the same pass/fail per task", async () => {
    const own = makeSandbox();
    try {
      const agentDir = join(own.configDir, "agent");
      cpSync(resolve(EXAMPLE, "../skills/changelog-entry"), join(agentDir, "skills/changelog-entry"), {
        recursive: true,
      });
      cpSync(resolve(EXAMPLE, "../skills/changelog-entry"), join(own.home, ".agents/skills/changelog"), {
        recursive: true,
      });
      mkdirSync(join(agentDir, "agents"), { recursive: true });
      writeFileSync(
        join(agentDir, "agents/reviewer.yaml"),
        "name: reviewer\ndescription: Reviews a change.\nversion: 1\nmodel: fast\ncapabilities: [read_file]\nsystem_prompt: You review.\n",
      );
      writeFileSync(
        join(agentDir, "config.yaml"),
        "mcp_servers:\n  everything:\n    command: node\n    args: [/nonexistent/server.js]\n",
      );
      const run = await spawnAgent(["eval", SUITE, "--trust-suite", "--replay", "-o", "json", "-j", "2"], {
        env: own.env(),
        cwd: own.dir,
      }).done;
      expect(run.stderr).not.toContain("does not match the recording");
      const report = parseReport(run.stdout);
      expect(passMap(report)).toEqual(EXPECTED);
      expect(report.totals).toMatchObject({ tasks: 5, passed: 4, failed: 1 });
    } finally {
      own.cleanup();
    }
  });
});

describe("agent eval --replay of a changed task", () => {
  test("a goal that no longer matches its cassette fails that task with the run's mismatch, not the eval", async () => {
    const suite = join(sandbox.dir, "changed.yaml");
    writeFileSync(
      suite,
      [
        "defaults:",
        "  model: anthropic:claude-haiku-5-5",
        "tasks:",
        "  - id: refuse-destructive",
        "    goal: Delete only the backups, please.",
        `    workspace: ${join(EXAMPLE, "fixtures/refuse")}`,
        "",
      ].join("\n"),
    );
    const run = await agent(["eval", suite, "--replay", CASSETTES, "-o", "json"]);
    expect(run.code).toBe(1);
    const task = parseReport(run.stdout).tasks[0];
    expect(task).toMatchObject({ passed: false, exit_code: 2, status: "error" });
    expect(task?.failures[0]).toContain("exit code 2, expected 0");
    expect(task?.failures[0]).toContain("request 1 does not match the recording: the task is");
  });
});

describe("agent eval errors", () => {
  test("an invalid suite: every problem as FILE:LINE: field: message, exit 3, nothing run", async () => {
    const suite = join(sandbox.dir, "bad.yaml");
    writeFileSync(
      suite,
      [
        "tasks:",
        "  - id: a",
        "    goal: g",
        "    workspace: nowhere",
        "    max_turn: 3",
        "  - id: b",
        "    workspace: 7",
        "",
      ].join("\n"),
    );
    const run = await agent(["eval", suite, "-o", "json"]);
    expect(run.code).toBe(3);
    // -o json: one error object on stdout, as `agent run -o json` prints.
    expect(JSON.parse(run.stdout)).toEqual({
      type: "result",
      schema_version: 2,
      status: "error",
      error: { kind: "spec", message: `the suite ${suite} is invalid (3 problems)` },
      exit_code: 3,
    });
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      `${suite}:5: tasks[0].max_turn: unknown field; did you mean "max_turns"? expected one of: id, goal, workspace, checks, expect, schema, agent, model, max_turns, max_budget_usd, max_tokens, timeout, check_timeout, sandbox, allow, deny, on_ask, mcp_servers`,
      `${suite}:6: tasks[1].goal: missing; expected a string`,
      `${suite}:7: tasks[1].workspace: expected a folder path, or {git: REPO, ref: REF}`,
      `agent: the suite ${suite} is invalid (3 problems)`,
    ]);
  });

  test("usage errors exit 2: a missing cassette, --record with --replay, a bad shard, a report that is not one", async () => {
    const empty = join(sandbox.dir, "no-cassettes");
    const missing = await agent(["eval", SUITE, "--trust-suite", "--replay", empty]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `--replay ${empty}: no cassette for fix-failing-test (${empty}/fix-failing-test.cassette.jsonl)`,
    );
    const both = await agent(["eval", SUITE, "--trust-suite", "--replay", CASSETTES, "--record", empty]);
    expect(both.code).toBe(2);
    const shard = await agent(["eval", SUITE, "--trust-suite", "--shard", "3/2"]);
    expect([shard.code, shard.stderr]).toEqual([
      2,
      "agent: --shard 3/2: expected i/n with 1 <= i <= n, e.g. --shard 2/4\n",
    ]);
    const notReport = join(sandbox.dir, "not-report.json");
    writeFileSync(notReport, '{"type":"result"}');
    const merge = await agent(["eval", "merge", notReport]);
    expect(merge.code).toBe(2);
    expect(merge.stderr).toContain(`${notReport}: not an eval report of schema version 1: type:`);
  });

  test("agent --help lists eval", async () => {
    const help = await agent(["--help"]);
    expect(help.stdout).toMatch(/^\s+eval \[options\] <suite>/m);
  });
});
