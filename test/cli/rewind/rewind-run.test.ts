/**
 * `agent rewind` for `run` sessions, from the user's side: runs in this process against the fake server,
 * in a workspace that is not a git repository. Each message changes files through write_file, edit_file
 * and exec; rewinding to each earlier message brings back exactly the bytes of that point, the next `-c`
 * continues the conversation from there, a file the user changed since is reported and left alone, and
 * the rewind itself can be undone.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeProjectSpec } from "../../e2e/support.ts";
import type { FakeTurn } from "../../support/fake-llm-server.ts";
import { inProcessFixture } from "../run/in-process.ts";

/** An agent that edits and runs commands (the built-in root only delegates). */
const fx = inProcessFixture((_server, sandbox) => {
  const spec = ["name: maker", "description: Makes.", "model: fast", "system_prompt: Make it."];
  writeProjectSpec(
    sandbox,
    "maker.yaml",
    [...spec, "capabilities: [read_file, write_file, edit_file, exec, scribe]", ""].join("\n"),
  );
  const scribe = ["name: scribe", "description: Writes.", "model: fast", "system_prompt: Write."];
  writeProjectSpec(sandbox, "scribe.yaml", [...scribe, "capabilities: [write_file]", ""].join("\n"));
});
const TIMEOUT = 60_000;

/** Every file of the workspace the test looks at, with its bytes (undefined: absent). */
const FILES = ["a.txt", "b.txt", "c.txt", "d.txt"];
function snapshot(): Record<string, string | undefined> {
  return Object.fromEntries(
    FILES.map((name) => {
      const path = join(fx.sandbox.workspace, name);
      return [name, existsSync(path) ? readFileSync(path, "utf8") : undefined];
    }),
  );
}

/** One user message answered after the scripted tool calls. */
async function message(args: string[], calls: FakeTurn["toolCalls"], answer: string) {
  fx.server.enqueue({ toolCalls: calls }, { text: answer });
  const result = await fx.runAgent([...args, "--on-ask", "allow"]);
  if (process.env.DEBUG_REWIND) console.log(result.stderr);
  expect(result.stderr).not.toContain("not checkpointed");
  expect(result.code).toBe(0);
}

/** Three messages: write a.txt and edit b.txt; a command changes c.txt and d.txt is written; a.txt again. */
async function threeMessages(): Promise<Record<string, string | undefined>[]> {
  writeFileSync(join(fx.sandbox.workspace, "b.txt"), "b original\n");
  writeFileSync(join(fx.sandbox.workspace, "c.txt"), "c original\n");
  const states = [snapshot()];
  await message(
    ["run", "--agent", "maker", "first message"],
    [
      { name: "write_file", args: { path: "a.txt", content: "a one\n" } },
      { name: "edit_file", args: { path: "b.txt", old_string: "original", new_string: "edited" } },
    ],
    "did one",
  );
  states.push(snapshot());
  await message(
    ["run", "-c", "second message"],
    [
      { name: "exec", args: { command: "printf 'c by command\\n' > c.txt" } },
      { name: "write_file", args: { path: "d.txt", content: "d two\n" } },
    ],
    "did two",
  );
  states.push(snapshot());
  await message(
    ["run", "-c", "third message"],
    [{ name: "write_file", args: { path: "a.txt", content: "a three\n" } }],
    "did three",
  );
  states.push(snapshot());
  return states;
}

describe("agent rewind", () => {
  test(
    "--to N restores the files as they were before message N, and -c continues from there",
    async () => {
      const states = await threeMessages();
      expect(existsSync(join(fx.sandbox.workspace, ".git"))).toBe(false);
      expect(states[3]).toEqual({
        "a.txt": "a three\n",
        "b.txt": "b edited\n",
        "c.txt": "c by command\n",
        "d.txt": "d two\n",
      });

      const three = await fx.runAgent(["rewind", "--to", "3"]);
      expect(three.code).toBe(0);
      expect(snapshot()).toEqual(states[2] ?? {});
      expect(three.stdout).toContain("restored a.txt");

      const two = await fx.runAgent(["rewind", "--to", "2"]);
      expect(two.code).toBe(0);
      expect(snapshot()).toEqual(states[1] ?? {});
      expect(two.stdout).toContain("removed d.txt");

      // The conversation goes on from before message 2: message 1 is sent, messages 2 and 3 are not.
      fx.server.enqueue({ text: "from two" });
      const next = await fx.runAgent(["run", "-c", "after the rewind"]);
      expect(next.code).toBe(0);
      const sent = JSON.stringify(fx.server.requests.at(-1)?.body);
      expect(sent).toContain("first message");
      expect(sent).not.toContain("second message");
      expect(sent).not.toContain("third message");

      const start = await fx.runAgent(["rewind", "--code"]);
      expect(start.code).toBe(0);
      expect(snapshot()).toEqual(states[0] ?? {});
    },
    TIMEOUT,
  );

  test(
    "a file the user changed since is reported and left alone; --undo takes the rewind back",
    async () => {
      const states = await threeMessages();
      writeFileSync(join(fx.sandbox.workspace, "a.txt"), "the user's own edit\n");
      const result = await fx.runAgent(["rewind", "--to", "1", "--code"]);
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        "not restored: a.txt: changed since the agent left it (not overwritten)",
      );
      expect(snapshot()).toEqual({ ...states[0], "a.txt": "the user's own edit\n" });
      expect(result.stdout).toMatch(/to undo: agent rewind \S+ --undo/);

      const undo = await fx.runAgent(["rewind", "--undo"]);
      expect(undo.code).toBe(0);
      expect(snapshot()).toEqual({ ...states[3], "a.txt": "the user's own edit\n" });
      const again = await fx.runAgent(["rewind", "--undo"]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain("nothing to undo");
    },
    TIMEOUT,
  );

  test(
    "--to past the last message is a usage error naming the range",
    async () => {
      await message(
        ["run", "--agent", "maker", "only message"],
        [{ name: "write_file", args: { path: "a.txt", content: "x\n" } }],
        "ok",
      );
      const result = await fx.runAgent(["rewind", "--to", "4"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--to 4: the session has 1 user message (1-1)");
      expect(readFileSync(join(fx.sandbox.workspace, "a.txt"), "utf8")).toBe("x\n");
    },
    TIMEOUT,
  );
});

describe("sub-agents", () => {
  test(
    "a sub-agent's write is in the session's checkpoints: the rewind takes it back",
    async () => {
      writeFileSync(join(fx.sandbox.workspace, "d.txt"), "d original\n");
      fx.server.enqueue(
        { toolCalls: [{ name: "scribe", args: { goal: "rewrite d.txt" } }] },
        { toolCalls: [{ name: "write_file", args: { path: "d.txt", content: "d by scribe\n" } }] },
        { text: "rewrote it" },
        { text: "done" },
      );
      const run = await fx.runAgent(["run", "--agent", "maker", "delegate", "--on-ask", "allow"]);
      expect(run.code).toBe(0);
      expect(readFileSync(join(fx.sandbox.workspace, "d.txt"), "utf8")).toBe("d by scribe\n");
      const rewind = await fx.runAgent(["rewind"]);
      expect(rewind.code).toBe(0);
      expect(rewind.stdout).toContain("restored d.txt");
      expect(readFileSync(join(fx.sandbox.workspace, "d.txt"), "utf8")).toBe("d original\n");
    },
    TIMEOUT,
  );
});

describe("checkpoints in a hostile workspace", () => {
  test(
    "a workspace .git/config with hooks, fsmonitor and a filter, and a .gitattributes, run nothing",
    async () => {
      const ws = fx.sandbox.workspace;
      const marker = join(fx.sandbox.dir, "PWNED");
      const run = `sh -c 'echo ran >> ${marker}'`;
      mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
      writeFileSync(
        join(ws, ".git", "config"),
        `[core]\n\tfsmonitor = ${run}\n\thooksPath = .git/hooks\n[filter "evil"]\n\tclean = ${run}\n\tsmudge = ${run}\n\trequired = true\n`,
      );
      writeFileSync(join(ws, ".git", "HEAD"), "ref: refs/heads/main\n");
      for (const hook of ["pre-commit", "post-index-change", "fsmonitor-watchman"]) {
        writeFileSync(join(ws, ".git", "hooks", hook), `#!/bin/sh\necho ran >> ${marker}\n`, { mode: 0o755 });
      }
      writeFileSync(join(ws, ".gitattributes"), "* filter=evil text eol=crlf\n");
      await message(
        ["run", "--agent", "maker", "change things"],
        [
          { name: "write_file", args: { path: "a.txt", content: "line one\nline two\n" } },
          { name: "exec", args: { command: "printf 'by command\\n' > c.txt" } },
        ],
        "done",
      );
      expect(existsSync(marker)).toBe(false);
      const rewind = await fx.runAgent(["rewind"]);
      expect(rewind.code).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(join(ws, "a.txt"))).toBe(false);
      expect(existsSync(join(ws, "c.txt"))).toBe(false);
      // Undo brings back the exact bytes: no end-of-line conversion from .gitattributes.
      expect((await fx.runAgent(["rewind", "--undo"])).code).toBe(0);
      expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("line one\nline two\n");
      expect(existsSync(marker)).toBe(false);
    },
    TIMEOUT,
  );

  test(
    "without git on the PATH the run goes on, with one warning that checkpoints are off",
    async () => {
      const bin = join(fx.sandbox.dir, "bin-without-git");
      mkdirSync(bin);
      for (const tool of ["sh", "printf", "bwrap"]) {
        const found = Bun.which(tool);
        if (found) symlinkSync(found, join(bin, tool));
      }
      fx.server.enqueue(
        {
          toolCalls: [
            { name: "write_file", args: { path: "a.txt", content: "x\n" } },
            { name: "write_file", args: { path: "b.txt", content: "y\n" } },
          ],
        },
        { text: "written" },
      );
      const result = await fx.runAgent(["run", "--agent", "maker", "write", "--on-ask", "allow"], {
        PATH: bin,
      });
      expect(result.code).toBe(0);
      expect(readFileSync(join(fx.sandbox.workspace, "b.txt"), "utf8")).toBe("y\n");
      const warnings = result.stderr.split("\n").filter((line) => line.includes("checkpoints are off"));
      expect(warnings).toEqual([expect.stringContaining("git was not found on the PATH")]);
    },
    TIMEOUT,
  );
});
