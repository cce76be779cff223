/** `agent eval SUITE.yaml` and `agent eval merge REPORT...`: declared here, run in eval-main.ts (docs/eval.md). */
import { availableParallelism } from "node:os";
import { type Command, Option } from "commander";
import type { CommandModule } from "../shared/command-module.ts";
import { commandIo } from "../shared/io/command-io.ts";
import type * as EvalMain from "./eval-main.ts";
import type { EvalFlags, MergeFlags } from "./eval-main.ts";

/** Exit codes of `agent eval` (docs/eval.md "Exit codes"). */
const EXIT_CODES = [
  "  0  every task passed",
  "  1  some task failed (its run, an expectation or a check)",
  "  2  usage error (no such suite file, bad flag, missing cassette, unreadable report)",
  "  3  the suite is invalid (FILE:LINE: field: what was expected), or untrusted and loosening your rules",
  " 70  internal error",
  "130  interrupted",
];

function outputFormats(): Option {
  return new Option("-o, --output <format>", "what stdout carries")
    .choices(["table", "json"])
    .default("table");
}

export const evalCommand: CommandModule<typeof EvalMain> = {
  register(program: Command, load, io) {
    const command = program
      .command("eval")
      .description(
        "run a task suite: each task in a fresh workspace copy, then its checks; report per task and in total",
      )
      .argument("<suite>", "the suite file (YAML, docs/eval.md)")
      // `merge` has its own -o and --junit: without this, the ones after `merge` would be eval's.
      .enablePositionalOptions()
      .option("-j, --jobs <n>", "tasks run at once", String(availableParallelism()))
      .addOption(outputFormats())
      .option("--junit <file>", "also write the report as JUnit XML")
      .option(
        "--record [dir]",
        "record each task's model exchanges to DIR/TASK.cassette.jsonl (default DIR: cassettes/ beside the suite)",
      )
      .option(
        "--replay [dir]",
        "replay each task from DIR/TASK.cassette.jsonl, offline with no key (default DIR: cassettes/ beside the suite)",
      )
      .option("--compare <report>", "print the difference with an earlier `-o json` report")
      .option("--shard <i/n>", "run only shard i of n (tasks i, i+n, ... in suite order)")
      .option(
        "--out <dir>",
        "where each task's result, answer and transcript go (default $XDG_STATE_HOME/agent/evals/RUN)",
      )
      .option("--keep-workspaces", "keep each task's workspace copy (its path is in the report)")
      .option(
        "--trust-suite",
        "let the suite set sandbox: off, on_ask: allow and allow: rules (refused otherwise, exit 3)",
      )
      .action(async (suite: string, flags: EvalFlags) => {
        const { evalSuiteCommand } = await load();
        await evalSuiteCommand(suite, flags, commandIo(io));
      });
    command
      .command("merge")
      .description("merge the -o json reports of a sharded suite into one report")
      .argument("<reports...>", "the shard reports")
      .addOption(outputFormats())
      .option("--junit <file>", "also write the merged report as JUnit XML")
      .action(async (reports: string[], flags: MergeFlags) => {
        const { evalMergeCommand } = await load();
        await evalMergeCommand(reports, flags, commandIo(io));
      });
    command.addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  $ agent eval examples/eval/suite.yaml --trust-suite --replay",
        "      replay the example suite offline: no key, no network",
        "  $ agent eval suite.yaml -o json --junit junit.xml > report.json",
        "      run live; a JSON report on stdout and JUnit XML for the CI's test view",
        "  $ agent eval suite.yaml --shard 2/4 -o json > shard2.json && agent eval merge shard*.json",
        "      one of four CI jobs, then the merged report",
        "",
        "Exit codes (docs/eval.md):",
        ...EXIT_CODES,
      ].join("\n"),
    );
  },
};
