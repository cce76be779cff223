/**
 * Reads an earlier eval report (`--compare OLD.json`, `agent eval merge A.json ...`). A file that cannot
 * be read, is not JSON, or is not an eval report of a schema version this agent reads is a usage error
 * (exit 2) naming the file and what was wrong.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ExitCode } from "../../../kernel/index.ts";
import { CliExit } from "../../shared/command-module.ts";
import { EVAL_SCHEMA_VERSION, type EvalReport } from "./eval-report.ts";

const number = z.number();
// The fields compare and merge use; the rest is carried along as it is.
const reportShape = z.looseObject({
  type: z.literal("eval_report"),
  schema_version: z.literal(EVAL_SCHEMA_VERSION),
  suite: z.string(),
  name: z.string(),
  duration_ms: number,
  tasks: z.array(
    z.looseObject({
      id: z.string(),
      index: number,
      passed: z.boolean(),
      turns: number,
      total_tokens: number,
      input_tokens: number,
      output_tokens: number,
      cost_usd: number,
      duration_ms: number,
      denials: number,
    }),
  ),
});

export function readReport(file: string): EvalReport {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new CliExit(ExitCode.usage, `${file}: cannot read the eval report: ${(error as Error).message}`);
  }
  const parsed = reportShape.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join(".") || "(top)";
    throw new CliExit(
      ExitCode.usage,
      `${file}: not an eval report of schema version ${EVAL_SCHEMA_VERSION}: ${field}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data as unknown as EvalReport;
}
