/**
 * What `agent run` says about the sandbox where it starts: in `/` every bwrap on PATH lies inside the
 * workspace and is not used (a command could replace it), and the warning says so, never "not found on
 * PATH"; in `$HOME` and in a project folder it says the same (nothing: the sandbox is on). Linux with
 * bubblewrap on PATH, as the test machines and CI have it.
 */
import { expect, test } from "bun:test";
import { anthropicEnv } from "../../e2e/support.ts";
import { inProcessFixture, runInProcess } from "./in-process.ts";

const fixture = inProcessFixture();
const BWRAP = Bun.which("bwrap");

test("in /, the warning says bwrap is on PATH but inside the workspace, not that it is missing", async () => {
  expect(BWRAP).not.toBeNull();
  const { server, sandbox } = fixture;
  server.enqueue({ text: "hello" });
  const result = await runInProcess(["run", "hi"], { env: anthropicEnv(sandbox, server), cwd: "/" });
  expect(result.code).toBe(0);
  expect(result.stderr).not.toContain("not found on PATH");
  expect(result.stderr).toMatch(
    /sandbox unavailable: bwrap \(\S+\) is on PATH but lies inside the workspace \//,
  );
  expect(result.stderr).toContain("run agent in a project folder");
});

test("in $HOME the run says about the sandbox what it says in a project folder", async () => {
  const { server, sandbox } = fixture;
  server.enqueue({ text: "hello" }, { text: "hello" });
  const env = anthropicEnv(sandbox, server);
  const home = await runInProcess(["run", "hi"], { env, cwd: sandbox.home });
  const project = await runInProcess(["run", "hi"], { env, cwd: sandbox.workspace });
  expect(home.code).toBe(0);
  expect(project.code).toBe(0);
  const sandboxLines = (stderr: string) => stderr.split("\n").filter((line) => /sandbox|bwrap/.test(line));
  expect(sandboxLines(home.stderr)).toEqual(sandboxLines(project.stderr));
});
