/** exec {command, timeout_ms?}: runs a shell command in the workspace with a timeout and an output cap. */

import { StringDecoder } from "node:string_decoder";
import { z } from "zod";
import { lastLines, stripEscapeSequences } from "../../kernel/index.ts";
import { definePrimitive } from "../define.ts";
import { minimalEnv } from "./exec-env.ts";
import { runCommand } from "./run-command.ts";

export const DEFAULT_EXEC_TIMEOUT_MS = 120_000;
export const MAX_EXEC_TIMEOUT_MS = 1_800_000;
/** Bytes of combined output kept from one command. */
export const EXEC_OUTPUT_LIMIT = 30_000;

const schema = z.object({
  command: z.string().min(1).describe("The bash command line to run in the workspace directory."),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(MAX_EXEC_TIMEOUT_MS)
    .optional()
    .describe(`Milliseconds before the command is killed (default ${DEFAULT_EXEC_TIMEOUT_MS}).`),
});
export type ExecArgs = z.infer<typeof schema>;

export const execTool = definePrimitive<ExecArgs>({
  name: "exec",
  description:
    "Run a shell command with bash in the workspace directory and return its combined stdout and stderr " +
    `and exit code. Non-interactive: stdin is empty. Killed after timeout_ms (default ${DEFAULT_EXEC_TIMEOUT_MS / 1000} s); ` +
    `output beyond ${EXEC_OUTPUT_LIMIT / 1000} KB is cut from the middle. Background processes are stopped when the ` +
    "command finishes. Environment variables holding keys or tokens are not available. Commands may run in a " +
    "sandbox: then writes outside the workspace (and into .git) fail with 'Read-only file system', /tmp is " +
    "private, and there is no network.",
  schema,
  readOnly: false,
  async policyTarget(args) {
    return { targets: [args.command], sensitive: false };
  },
  async preview(args) {
    return args.command;
  },
  async run(args, ctx) {
    const timeoutMs = args.timeout_ms ?? DEFAULT_EXEC_TIMEOUT_MS;
    const decoder = new StringDecoder("utf8");
    const onOutput = ctx.onOutput;
    const result = await runCommand(args.command, {
      cwd: ctx.workspace.root,
      env: minimalEnv(ctx.env ?? process.env),
      timeoutMs,
      signal: ctx.signal,
      outputLimit: EXEC_OUTPUT_LIMIT,
      sandbox: ctx.workspace.sandbox,
      ...(onOutput ? { onOutput: (chunk: Buffer) => onOutput(decoder.write(chunk)) } : {}),
    });
    const seconds = (result.durationMs / 1000).toFixed(1);
    let status: string;
    if (result.spawnError !== undefined) status = `could not start: ${result.spawnError}`;
    else if (result.timedOut) status = `killed: timed out after ${timeoutMs} ms`;
    else if (result.aborted) status = "killed: aborted";
    else if (result.exitCode === null) status = `killed by ${result.exitSignal ?? "a signal"}`;
    else status = `exit code ${result.exitCode}`;
    const output = stripEscapeSequences(result.output).trimEnd();
    // What the user sees: the line count and the last lines (where a failure usually shows), not the first.
    const count = output === "" ? 0 : output.split("\n").length;
    const lines = `${result.cutBytes > 0 ? "more than " : ""}${count} ${count === 1 ? "line" : "lines"}`;
    return {
      modelText: `${output === "" ? "(no output)" : output}\n\n[${status}]`,
      display: `$ ${firstLine(args.command)}  (${status}, ${seconds} s)`,
      isError: result.exitCode !== 0,
      summary: count === 0 ? `${status}, no output` : `${status}, ${lines}`,
      tail: lastLines(output),
    };
  },
});

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length < text.length ? `${line} ...` : line;
}
