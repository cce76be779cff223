/**
 * The sandbox a task's checks run in: the one its run had (src/tools/exec/sandbox.ts, bubblewrap), over
 * the same workspace copy, so a check that runs code the model wrote (`sh test.sh`, `npm test`) gets no
 * network, a private /tmp and a read-only file system outside the workspace. The task's own folder (its
 * answer and result files) is bound read-only so checks can read them. Checks get the minimal environment
 * exec commands get (no provider keys: src/tools/exec/exec-env.ts) plus AGENT_EVAL_TASK,
 * AGENT_EVAL_ANSWER and AGENT_EVAL_RESULT. Where the sandbox is unavailable, checks run unsandboxed and
 * the caller is told why once.
 */
import { realpathSync } from "node:fs";
import { minimalEnv } from "../../../tools/exec/exec-env.ts";
import type { ExecSandbox } from "../../../tools/exec/exec-sandbox.ts";
import { chooseSandbox, sandboxedBash } from "../../../tools/exec/sandbox.ts";
import type { SandboxMode } from "../suite/suite-schema.ts";

export interface CheckShell {
  /** The program and arguments that run `command` in the workspace. */
  command(command: string): { file: string; args: string[] };
  env: Record<string, string>;
  /** Set when a sandbox was wanted and is unavailable. */
  unavailable?: string;
}

export async function checkShell(
  mode: SandboxMode,
  workspace: string,
  taskDir: string,
  parentEnv: Record<string, string | undefined>,
  extraEnv: Record<string, string>,
): Promise<CheckShell> {
  const env = { ...minimalEnv(parentEnv), ...extraEnv };
  const root = realpathSync(workspace);
  const choice = await chooseSandbox({ mode }, [root], parentEnv);
  const plain = (command: string) => ({ file: "sh", args: ["-c", command] });
  if (!choice.sandbox)
    return { command: plain, env, ...(choice.unavailable ? { unavailable: choice.unavailable } : {}) };
  const sandbox: ExecSandbox = {
    ...choice.sandbox,
    readOnlyPaths: [...choice.sandbox.readOnlyPaths, realpathSync(taskDir)],
  };
  return { command: (command) => sandboxedBash(sandbox, root, command, env.PATH ?? ""), env };
}
