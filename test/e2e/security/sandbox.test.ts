/**
 * The exec sandbox end to end: `agent run` against the fake model server, the scripted model running
 * commands through exec with `--on-ask allow` (the approval lets them run; the sandbox is what stops them).
 * Where bwrap is installed (CI: .ci/run refuses to test without it) a write outside the workspace and a
 * socket to the host's loopback fail while a write inside succeeds; everywhere, a PATH without bwrap gives
 * one warning and the run goes on, and `sandbox.required: true` refuses with exit 3.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { binWithOnly, outsideTmpDir } from "../../tools/helpers.ts";
import {
  anthropicEnv,
  type E2eSandbox,
  freshServerAndSandbox,
  onlyTranscriptText,
  runAgentIn,
  toolResultsOf,
  transcriptRecords,
} from "../support.ts";

let server: FakeLlmServer;
let sandbox: E2eSandbox;
freshServerAndSandbox((s, b) => {
  server = s;
  sandbox = b;
});

const outside: string[] = [];
afterAll(() => {
  for (const dir of outside) rmSync(dir, { recursive: true, force: true });
});

function outsideDir(): string {
  const dir = outsideTmpDir("agent-e2e-outside-");
  outside.push(dir);
  return dir;
}

/** Runs the command-runner agent on one exec call; resolves to the run and the tool result the model got. */
async function runExec(command: string, extraArgs: string[] = [], env = anthropicEnv(sandbox, server)) {
  server.enqueue({ toolCalls: [{ name: "exec", args: { command } }] }, { text: "Done." });
  const first = server.requests.length;
  const result = await runAgentIn(
    sandbox,
    ["run", "--agent", "command-runner", "--on-ask", "allow", ...extraArgs, "run it"],
    env,
  );
  return { ...result, toolResult: toolResultsOf(server.requests[first + 1]).join("\n") };
}

/** A PATH with bun, bash and git (checkpoints) but no bwrap (bwrap normally sits next to them in /usr/bin). */
const pathWithoutBwrap = () => binWithOnly(join(sandbox.dir, "bin-without-bwrap"), ["bun", "bash", "git"]);

function writeConfig(text: string): void {
  mkdirSync(join(sandbox.configDir, "agent"), { recursive: true });
  writeFileSync(join(sandbox.configDir, "agent", "config.yaml"), text);
}

describe("without bwrap", () => {
  test("one warning (stderr and a warning event), and the run goes on unsandboxed", async () => {
    const env = anthropicEnv(sandbox, server, { PATH: pathWithoutBwrap() });
    const result = await runExec("echo ran > ran.txt", [], env);
    expect(result.code).toBe(0);
    const warning = "sandbox unavailable: bwrap (bubblewrap) was not found on PATH";
    expect(result.stderr.split(warning)).toHaveLength(2);
    expect(readFileSync(join(sandbox.workspace, "ran.txt"), "utf8")).toBe("ran\n");
    const warnings = transcriptRecords(onlyTranscriptText(sandbox)).filter((r) => r.kind === "warning");
    expect(warnings.map((r) => r.data.code)).toEqual(["sandbox_unavailable"]);
  });

  test("sandbox.required: true refuses with exit 3 before any model call", async () => {
    writeConfig("sandbox:\n  required: true\n");
    const env = anthropicEnv(sandbox, server, { PATH: pathWithoutBwrap() });
    const result = await runAgentIn(sandbox, ["run", "--on-ask", "allow", "run it"], env);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("sandbox.required is true but the sandbox is unavailable");
    expect(server.requests).toHaveLength(0);
  });

  test("--sandbox off: no warning", async () => {
    const env = anthropicEnv(sandbox, server, { PATH: pathWithoutBwrap() });
    const result = await runExec("echo ran", ["--sandbox", "off"], env);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain("sandbox");
  });
});

if (Bun.which("bwrap") === null) {
  test("bwrap is not installed here: a default run warns that the sandbox is unavailable", async () => {
    const result = await runExec("echo ran");
    expect(result.stderr).toContain("sandbox unavailable");
  });
} else {
  describe("under bubblewrap (the default where it works)", () => {
    test("a write outside the workspace fails; the model sees why; the file is absent", async () => {
      const target = join(outsideDir(), "escaped.txt");
      const result = await runExec(`echo escaped > ${target}`);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain("sandbox unavailable");
      expect(result.toolResult).toContain("Read-only file system");
      expect(existsSync(target)).toBe(false);
    });

    test("a write inside the workspace succeeds", async () => {
      const result = await runExec("echo made > made.txt");
      expect(result.code).toBe(0);
      expect(readFileSync(join(sandbox.workspace, "made.txt"), "utf8")).toBe("made\n");
    });

    test("a socket to a server on 127.0.0.1 fails and the server sees no connection", async () => {
      let connections = 0;
      const listener = createServer((socket) => {
        connections += 1;
        socket.end();
      });
      const port = await new Promise<number>((resolve) =>
        listener.listen(0, "127.0.0.1", () => {
          const address = listener.address();
          resolve(typeof address === "object" && address ? address.port : 0);
        }),
      );
      try {
        const result = await runExec(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`);
        expect(result.code).toBe(0);
        expect(result.toolResult).not.toContain("connected");
        expect(result.toolResult).toContain("Connection refused");
        expect(connections).toBe(0);
      } finally {
        listener.close();
      }
    });

    test("a PATH whose only bash is under /tmp (private inside): the required sandbox works", async () => {
      writeConfig("sandbox:\n  required: true\n");
      const bin = binWithOnly(join(sandbox.dir, "bin-in-tmp"), ["bun", "bash", "bwrap"]);
      const result = await runExec("echo made > made.txt", [], anthropicEnv(sandbox, server, { PATH: bin }));
      expect(result.stderr).not.toContain("sandbox");
      expect(result.code).toBe(0);
      expect(readFileSync(join(sandbox.workspace, "made.txt"), "utf8")).toBe("made\n");
    });

    test("--sandbox off lifts it: the same outside write lands", async () => {
      const target = join(outsideDir(), "allowed.txt");
      const result = await runExec(`echo out > ${target}`, ["--sandbox", "off"]);
      expect(result.code).toBe(0);
      expect(readFileSync(target, "utf8")).toBe("out\n");
    });
  });
}
