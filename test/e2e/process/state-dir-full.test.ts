/**
 * Issue 22, from the fault's side: a full or unwritable state directory is exit 3 with JSON error kind
 * "state" naming the path, before the run or when it fills mid-run, never `70 internal error: ENOSPC`.
 * The full disk is a real tmpfs of a few pages mounted for the test (this needs root, as CI and these
 * machines run; as another user the mount fails and so does the test, loudly).
 */
import { afterEach, expect, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runAgent, withFakeServerAndSandbox } from "../../cli/run-agent.ts";
import { spawnAgent, waitFor } from "../support.ts";

const fx = withFakeServerAndSandbox();
const mounts: string[] = [];

afterEach(() => {
  for (const dir of mounts.splice(0)) {
    Bun.spawnSync(["umount", "-l", dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A tmpfs of `size` mounted on a fresh directory (`ro` for a read-only one). */
function tinyTmpfs(size: string, options = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-state-fs-"));
  const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${size}${options}`, "tmpfs", dir], {
    stderr: "pipe",
  });
  if (mounted.exitCode !== 0) throw new Error(`mount tmpfs failed: ${mounted.stderr.toString()}`);
  mounts.push(dir);
  return dir;
}

/** Writes zeros to a file under `dir` until the file system is full. */
function fill(dir: string): void {
  const fd = openSync(join(dir, `filler-${mounts.length}-${Date.now()}`), "a");
  const block = Buffer.alloc(4096);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}

function env(stateHome: string): Record<string, string> {
  return fx.sandbox.env({
    ANTHROPIC_API_KEY: "sk-ant-test-state-0001",
    ANTHROPIC_BASE_URL: fx.server.anthropicBaseUrl,
    XDG_STATE_HOME: stateHome,
  });
}

/**
 * Runs `agent ARGS` with its state under `stateHome`, the fake server holding its answer `text` until
 * `disk` is full: the run has started and written its first records, then the disk fills and the answer
 * comes. The run's output.
 */
async function runFillingMidRun(args: string[], stateHome: string, disk: string, text: string) {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  fx.server.enqueue({ text, holdUntil: held });
  const before = fx.server.requests.length;
  const running = spawnAgent(args, { env: env(stateHome), cwd: fx.sandbox.home });
  await waitFor(() => fx.server.requests.length > before, "the run's first model request");
  fill(disk);
  release();
  return running.done;
}

function errorOf(stdout: string): { kind?: string; message?: string } {
  const json = JSON.parse(stdout) as { error?: { kind?: string; message?: string } };
  return json.error ?? {};
}

test("a state directory already full: exit 3, kind state, naming the path", async () => {
  const state = tinyTmpfs("64k");
  mkdirSync(join(state, "agent", "sessions"), { recursive: true });
  fill(state);
  fx.server.enqueue({ text: "an answer nobody can keep" });
  const result = await runAgent(["run", "-o", "json", "hello"], { env: env(state), cwd: fx.sandbox.home });
  expect(result.stderr).not.toContain("internal error");
  expect(result.code).toBe(3);
  const error = errorOf(result.stdout);
  expect(error.kind).toBe("state");
  expect(error.message).toContain(join(state, "agent", "sessions"));
  expect(error.message).toContain("no space left on the device");
  fx.server.clear();
});

test("a state directory that fills mid-run: exit 3, kind state, naming the transcript", async () => {
  const state = tinyTmpfs("256k");
  const result = await runFillingMidRun(["run", "-o", "json", "hello"], state, state, "x".repeat(2000));
  expect(result.stderr).not.toContain("internal error");
  expect(result.code).toBe(3);
  const error = errorOf(result.stdout);
  expect(error.kind).toBe("state");
  expect(error.message).toContain(join(state, "agent", "sessions"));
  expect(error.message).toContain("ENOSPC");
});

test("a read-only state directory: exit 3, kind state, naming the path, before any request", async () => {
  const state = tinyTmpfs("64k", ",ro");
  fx.server.enqueue({ text: "must not be used" });
  const before = fx.server.requests.length;
  const result = await runAgent(["run", "-o", "json", "hello"], { env: env(state), cwd: fx.sandbox.home });
  expect(result.code).toBe(3);
  const error = errorOf(result.stdout);
  expect(error.kind).toBe("state");
  expect(error.message).toContain(join(state, "agent", "sessions"));
  expect(error.message).toContain("read-only");
  expect(fx.server.requests.length - before).toBe(0);
  fx.server.clear();
});

test("a cassette whose disk fills mid-run: exit 3, kind state, naming the cassette (not a quiet 0)", async () => {
  const disk = tinyTmpfs("256k");
  const cassette = join(disk, "run.cassette.jsonl");
  // The cassette's header is written before the disk fills; its exchange (larger than what is left of the
  // header's page) cannot be.
  const result = await runFillingMidRun(
    ["helper", "--json", "--record", cassette, "hello"],
    join(fx.sandbox.dir, "state"),
    disk,
    "x".repeat(20_000),
  );
  expect(result.stderr).not.toContain("internal error");
  expect(result.code).toBe(3);
  const error = errorOf(result.stdout);
  expect(error.kind).toBe("state");
  expect(error.message).toContain(`cannot write cassette ${cassette}: ENOSPC`);
});
