/**
 * Sandboxed exec (src/tools/exec/sandbox.ts): what a command under bubblewrap can and cannot do, seen from the
 * host. Where bwrap is installed (CI installs it: .ci/run refuses to test without it) every enforcement test
 * runs; where it is not, the one test that can run here asserts the unavailable path instead, so nothing is
 * ever skipped silently. The choice itself (missing binary, refused namespaces, off, not Linux) is tested
 * with fake binaries and needs no bwrap.
 */
import { afterAll, describe, expect, test } from "bun:test";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { runVerifyCommands } from "../../../src/agents/loop/verify.ts";
import type { makeEvent } from "../../../src/kernel/index.ts";
import { Redactor } from "../../../src/kernel/text/redact.ts";
import { flagApprover } from "../../../src/policy/approvers.ts";
import { ApprovalGate } from "../../../src/policy/gate.ts";
import { buildRuleSet } from "../../../src/policy/rules.ts";
import { execTool } from "../../../src/tools/exec/exec.ts";
import { runCommand } from "../../../src/tools/exec/run-command.ts";
import { chooseSandbox, ISOLATIONS, type SandboxSettings } from "../../../src/tools/exec/sandbox.ts";
import { MODEL_TEXT_LIMIT } from "../../../src/tools/truncate.ts";
import { Workspace } from "../../../src/tools/workspace.ts";
import { binWithOnly, cleanup, contextFor, goneSoon, outsideTmpDir, tempDir } from "../../tools/helpers.ts";

const BWRAP = Bun.which("bwrap");
const dirs: string[] = [];
afterAll(async () => cleanup(...dirs));

async function dir(prefix: string): Promise<string> {
  const made = await tempDir(prefix);
  dirs.push(made);
  return made;
}

async function outsideDir(): Promise<string> {
  const made = outsideTmpDir("agent-sandbox-outside-");
  dirs.push(made);
  return made;
}

/** Writes an executable `bwrap` shell script with `body` into `bin` (made when missing); returns `bin`. */
function writeBwrap(bin: string, body: string): string {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, "bwrap"), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, "bwrap"), 0o755);
  return bin;
}

/** A PATH holding only a `bwrap` that prints `message` and fails, as bwrap does where namespaces are refused. */
async function failingBwrapPath(message: string): Promise<string> {
  return writeBwrap(await dir("agent-fake-bwrap-"), `echo '${message}' >&2\nexit 1`);
}

async function sandboxed(root: string, settings: SandboxSettings = {}): Promise<Workspace> {
  const workspace = await Workspace.open(root);
  const choice = await chooseSandbox(settings, workspace.roots, process.env);
  if (!choice.sandbox) throw new Error(`no sandbox: ${choice.unavailable}`);
  return workspace.withSandbox(choice.sandbox);
}

async function exec(workspace: Workspace, command: string, env?: Record<string, string>) {
  return execTool.run(
    { command },
    { ...(await contextFor(workspace.root)), workspace, ...(env ? { env } : {}) },
  );
}

describe("choosing the sandbox", () => {
  test("mode off asks for nothing and warns about nothing", async () => {
    expect(await chooseSandbox({ mode: "off" }, ["/w"], { PATH: "/nonexistent" })).toEqual({
      sandbox: undefined,
    });
  });

  test("without bwrap on PATH the sandbox is unavailable, and says why", async () => {
    const choice = await chooseSandbox({}, ["/w"], { PATH: "/nonexistent" });
    expect(choice.sandbox).toBeUndefined();
    expect(choice).toMatchObject({ unavailable: "bwrap (bubblewrap) was not found on PATH" });
  });

  test("a bwrap that cannot create namespaces is unavailable, with its own complaint", async () => {
    const bin = await failingBwrapPath("bwrap: No permissions to create a new namespace");
    const choice = await chooseSandbox({}, ["/w"], { PATH: bin });
    expect(choice.sandbox).toBeUndefined();
    expect(choice).toMatchObject({
      unavailable: `${bin}/bwrap does not work here: bwrap: No permissions to create a new namespace`,
    });
  });

  test("bwrap is probed once per process (once per isolation level), however often a sandbox is chosen", async () => {
    const bin = await dir("agent-counting-bwrap-");
    const calls = join(bin, "calls");
    writeBwrap(bin, `echo probe >> '${calls}'\necho 'bwrap: refused' >&2\nexit 1`);
    const choices = await Promise.all([1, 2, 3].map(() => chooseSandbox({}, ["/w"], { PATH: bin })));
    await chooseSandbox({ mode: "read-only" }, ["/w"], { PATH: bin });
    for (const choice of choices)
      expect(choice).toMatchObject({ unavailable: `${bin}/bwrap does not work here: bwrap: refused` });
    expect(readFileSync(calls, "utf8")).toBe("probe\n".repeat(ISOLATIONS.length));
  });

  test("a bwrap that refuses a user namespace still runs with every capability dropped", async () => {
    const bin = writeBwrap(
      await dir("agent-nouserns-bwrap-"),
      `[ "$1" = --unshare-user ] && { echo 'bwrap: No permissions to create new namespace' >&2; exit 1; }\nexit 0`,
    );
    const choice = await chooseSandbox({}, ["/w"], { PATH: bin });
    expect(choice.sandbox?.isolation).toEqual(["--cap-drop", "ALL"]);
  });

  test("a bwrap inside the workspace is never used", async () => {
    const root = await dir("agent-sandbox-planted-");
    const bin = writeBwrap(join(root, "bin"), "exit 0");
    // Never used, and the warning says why (it is there, but inside), not that it is missing.
    expect(await chooseSandbox({}, [root], { PATH: bin })).toEqual({
      sandbox: undefined,
      unavailable: `bwrap (${realpathSync(join(bin, "bwrap"))}) is on PATH but lies inside the workspace ${root}, where a command could replace it, so it is not used`,
      fix: "run agent in a project folder",
    });
  });

  test("outside Linux the sandbox is unavailable", async () => {
    expect(await chooseSandbox({}, ["/w"], { PATH: "/usr/bin" }, "darwin")).toMatchObject({
      unavailable: "the sandbox is Linux only (this is darwin)",
    });
  });
});

if (BWRAP === null) {
  test("bwrap is not installed here: the sandbox reports itself unavailable", async () => {
    expect(await chooseSandbox({}, ["/"], process.env)).toMatchObject({ sandbox: undefined });
  });
} else {
  describe("exec under bubblewrap (workspace-write)", () => {
    test("a write inside the workspace succeeds", async () => {
      const root = await dir("agent-sandbox-ws-");
      const out = await exec(await sandboxed(root), "echo made > inside.txt");
      expect(out.isError).toBe(false);
      expect(readFileSync(join(root, "inside.txt"), "utf8")).toBe("made\n");
    });

    test("a write outside the workspace fails and leaves no file", async () => {
      const root = await dir("agent-sandbox-ws-");
      const target = join(await outsideDir(), "escaped.txt");
      const out = await exec(await sandboxed(root), `echo escaped > ${target}`);
      expect(out.isError).toBe(true);
      expect(out.modelText).toContain("Read-only file system");
      expect(existsSync(target)).toBe(false);
    });

    test("/tmp is private: a write there does not reach the host's /tmp", async () => {
      const root = await dir("agent-sandbox-ws-");
      const name = `/tmp/agent-sandbox-private-${process.pid}-${Date.now()}`;
      const out = await exec(await sandboxed(root), `echo hidden > ${name} && cat ${name}`);
      expect(out.modelText).toContain("hidden");
      expect(out.isError).toBe(false);
      expect(existsSync(name)).toBe(false);
    });

    test(".git and .agent stay read-only inside the writable workspace", async () => {
      const root = await dir("agent-sandbox-ws-");
      mkdirSync(join(root, ".git", "hooks"), { recursive: true });
      mkdirSync(join(root, ".agent"));
      const out = await exec(
        await sandboxed(root),
        "echo evil > .git/hooks/pre-commit; echo evil > .agent/config.yaml; echo ok > src.txt",
      );
      expect(out.modelText).toContain("Read-only file system");
      expect(existsSync(join(root, ".git", "hooks", "pre-commit"))).toBe(false);
      expect(existsSync(join(root, ".agent", "config.yaml"))).toBe(false);
      expect(readFileSync(join(root, "src.txt"), "utf8")).toBe("ok\n");
    });

    test("read-only mode keeps the workspace read-only too", async () => {
      const root = await dir("agent-sandbox-ws-");
      const out = await exec(await sandboxed(root, { mode: "read-only" }), "echo no > nope.txt");
      expect(out.isError).toBe(true);
      expect(existsSync(join(root, "nope.txt"))).toBe(false);
    });

    test("bash found only under the host's /tmp (hidden inside) still runs the command", async () => {
      const root = await dir("agent-sandbox-ws-");
      const bin = binWithOnly(join(await dir("agent-sandbox-tmpbin-"), "bin"), ["bash"]);
      const out = await exec(await sandboxed(root), "echo ran > ran.txt", { PATH: bin });
      expect(out.isError).toBe(false);
      expect(readFileSync(join(root, "ran.txt"), "utf8")).toBe("ran\n");
    });

    test("a bash that lives under /tmp is bound read-only, that file alone", async () => {
      const root = await dir("agent-sandbox-ws-");
      const bin = await dir("agent-sandbox-tmpbash-");
      const bash = join(bin, "bash");
      copyFileSync(Bun.which("bash") ?? "/bin/bash", bash);
      chmodSync(bash, 0o755);
      writeFileSync(join(bin, "beside.txt"), "not for the sandbox\n");
      const out = await exec(
        await sandboxed(root),
        `echo "shell=$BASH"; cat ${bin}/beside.txt; echo overwritten > ${bash}`,
        { PATH: bin },
      );
      expect(out.modelText).toContain(`shell=${bash}`);
      expect(out.modelText).not.toContain("not for the sandbox");
      expect(out.modelText).toContain("Read-only file system");
      expect(readFileSync(bash).equals(readFileSync(Bun.which("bash") ?? "/bin/bash"))).toBe(true);
    });

    test("the minimal environment still applies inside", async () => {
      const root = await dir("agent-sandbox-ws-");
      const out = await exec(await sandboxed(root), "env", {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        ANTHROPIC_API_KEY: "sk-ant-secret-in-parent",
      });
      expect(out.modelText).toContain("AGENT_EXEC_ID=");
      expect(out.modelText).not.toContain("sk-ant-secret-in-parent");
    });
  });

  describe("network under bubblewrap", () => {
    let connections = 0;
    let server: Server;
    const listening = new Promise<number>((resolve) => {
      server = createServer((socket) => {
        connections += 1;
        socket.end("hello\n");
      });
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : 0);
      });
    });
    afterAll(() => server.close());
    const connect = (port: number) => `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;

    test("a socket to a server on the host's loopback fails and the server sees no connection", async () => {
      const port = await listening;
      const before = connections;
      const out = await exec(await sandboxed(await dir("agent-sandbox-net-")), connect(port));
      expect(out.isError).toBe(true);
      expect(out.modelText).not.toContain("connected");
      expect(connections).toBe(before);
    });

    test("with network allowed the same connection goes through", async () => {
      const port = await listening;
      const before = connections;
      const workspace = await sandboxed(await dir("agent-sandbox-net-"), { network: true });
      const out = await exec(workspace, connect(port));
      expect(out.modelText).toContain("connected");
      // The server's accept callback may run after the command ended: wait for it (bounded).
      for (let i = 0; i < 400 && connections === before; i++) await Bun.sleep(25);
      expect(connections).toBe(before + 1);
    });
  });

  describe("processes under bubblewrap", () => {
    // The sleeps carry this process's pid (`sleep 309.4242`): they are found by command line machine-wide,
    // and another test run beside this one has its own.
    const SLEEP = `309.${process.pid}`;
    const SETSID_SLEEP = `310.${process.pid}`;
    const SLEEP_2 = `311.${process.pid}`;
    test("the host sees a sandboxed process with its marker, and an abort ends it", async () => {
      const root = await dir("agent-sandbox-proc-");
      const workspace = await sandboxed(root);
      const controller = new AbortController();
      const running = runCommand(`echo $$ > started; exec sleep ${SLEEP}`, {
        cwd: root,
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
        timeoutMs: 60_000,
        signal: controller.signal,
        outputLimit: 1000,
        sandbox: workspace.sandbox,
      });
      let pid: number | undefined;
      for (let i = 0; i < 400 && pid === undefined; i++) {
        const found = Bun.spawnSync(["pgrep", "-f", `^sleep ${SLEEP}$`])
          .stdout.toString()
          .trim();
        if (found !== "") pid = Number(found.split("\n")[0]);
        else await Bun.sleep(25);
      }
      if (pid === undefined) throw new Error("the sandboxed sleep never showed up on the host");
      expect(readFileSync(`/proc/${pid}/environ`, "utf8")).toContain("AGENT_EXEC_ID=");
      controller.abort();
      const result = await running;
      expect(result.aborted).toBe(true);
      expect(await goneSoon(pid)).toBe(true);
    }, 30_000);

    test("a timeout ends the command and everything it started inside", async () => {
      const root = await dir("agent-sandbox-timeout-");
      const workspace = await sandboxed(root);
      const started = Date.now();
      const out = await execTool.run(
        {
          command: `setsid sleep ${SETSID_SLEEP} & sleep ${SLEEP_2} & echo up > up.txt; wait`,
          timeout_ms: 1000,
        },
        { ...(await contextFor(root)), workspace },
      );
      expect(out.modelText).toContain("killed: timed out after 1000 ms");
      expect(readFileSync(join(root, "up.txt"), "utf8")).toBe("up\n");
      expect(Date.now() - started).toBeLessThan(20_000);
      const left = () =>
        [SETSID_SLEEP, SLEEP_2].some((s) => Bun.spawnSync(["pgrep", "-f", `^sleep ${s}$`]).exitCode === 0);
      for (let i = 0; i < 200 && left(); i++) await Bun.sleep(50);
      expect(left()).toBe(false);
    }, 30_000);

    test("verify: commands run in the same sandbox", async () => {
      const root = await dir("agent-sandbox-verify-");
      const target = join(await outsideDir(), "verify-escaped.txt");
      const who = { agent: "root", name: "root", depth: 0 };
      const events: string[] = [];
      const emit = (event: ReturnType<typeof makeEvent>) => events.push(event.kind);
      const gate = new ApprovalGate({ rules: buildRuleSet({}), approver: flagApprover("allow"), emit });
      // The run's pipeline context, whose workspace carries the sandbox.
      const outcome = await runVerifyCommands([`echo x > ${target}`], {
        invoke: {
          who,
          emit,
          gate,
          signal: new AbortController().signal,
          workspace: await sandboxed(root),
          redactor: new Redactor([]),
          modelTextLimit: MODEL_TEXT_LIMIT,
          now: Date.now,
        },
        timeoutMs: 30_000,
        origin: "a test",
      });
      expect(outcome).toMatchObject({ ok: false, kind: "failed" });
      expect(existsSync(target)).toBe(false);
      expect(events).toContain("verify");
    });
  });
}
