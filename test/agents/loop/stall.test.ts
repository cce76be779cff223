/**
 * Stall detection from the attacker's side: a scripted model that loops while interleaving other
 * calls is caught, a model making real progress is not, and a stalled agent never finishes as a
 * success without its verify: commands having run and passed.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { scriptedApprover } from "../../../src/policy/approvers.ts";
import type { ScriptedTurn } from "../../support/scripted-provider.ts";
import { type Harness, harness, spec } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const readA: ScriptedTurn = { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] };
const writeB: ScriptedTurn = {
  toolCalls: [{ name: "write_file", arguments: { path: "b.txt", content: "same\n" } }],
};
const execTrue: ScriptedTurn = { toolCalls: [{ name: "exec", arguments: { command: "true" } }] };

test("a loop hidden behind alternating writes and exec calls is detected and nudged", async () => {
  // Reads of a.txt with other mutating calls between them: each mutation repeats an earlier one.
  const loop = [readA, writeB, readA, execTrue, readA, writeB, readA, execTrue, readA, writeB];
  h = await harness({
    specs: [spec("root", ["read_file", "write_file", "exec"])],
    script: {
      // Loops until told it is repeating itself, then answers.
      fallback: (request, i) => {
        const last = request.messages.at(-1);
        const nudged = last?.role === "user" && last.content.includes("repeating yourself");
        return nudged ? { text: "I was looping." } : (loop[i % loop.length] as ScriptedTurn);
      },
    },
  });
  writeFileSync(path.join(h.dir, "a.txt"), "a\n");
  const result = await h.run("do it", { limits: { maxTurns: 30 } });
  expect(h.of("warning").some((w) => w.data.code === "stall")).toBe(true);
  expect(result).toMatchObject({ finishReason: "stall", answer: "I was looping." });
  // Caught within the second round of the loop, not at the turn limit.
  expect(h.provider.requests.length).toBeLessThanOrEqual(loop.length);
});

test("read, edit, read with a changed result is progress, not a stall", async () => {
  h = await harness({
    specs: [spec("root", ["read_file", "edit_file"])],
    script: {
      queue: [
        readA,
        {
          toolCalls: [{ name: "edit_file", arguments: { path: "a.txt", old_string: "a", new_string: "b" } }],
        },
        readA,
        {
          toolCalls: [{ name: "edit_file", arguments: { path: "a.txt", old_string: "b", new_string: "a" } }],
        },
        readA,
        { text: "Edited twice." },
      ],
    },
  });
  writeFileSync(path.join(h.dir, "a.txt"), "a\n");
  const result = await h.run("edit");
  expect(h.of("warning").filter((w) => w.data.code === "stall")).toEqual([]);
  expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "Edited twice." });
});

const verify = ["test -f done.txt"];

test("a stalled agent whose verify command fails does not succeed: verify_failed", async () => {
  h = await harness({
    specs: [spec("root", ["read_file"], { verify })],
    script: { queue: [readA, readA, { text: "forced answer" }] },
  });
  writeFileSync(path.join(h.dir, "a.txt"), "a\n");
  const result = await h.run("loop");
  expect(h.of("warning").some((w) => w.data.code === "stall")).toBe(true);
  expect(result).toMatchObject({ status: "failure", finishReason: "verify_failed", answer: "forced answer" });
  const commands = h.of("verify").filter((e) => e.data.step === "command");
  expect(commands.map((e) => e.data.ok)).toEqual([false]);
});

test("a stalled agent still calling tools after the nudge is verified too", async () => {
  h = await harness({
    specs: [spec("root", ["read_file"], { verify })],
    script: { queue: [readA, readA, readA] },
  });
  writeFileSync(path.join(h.dir, "a.txt"), "a\n");
  const result = await h.run("loop");
  expect(result).toMatchObject({ status: "failure", finishReason: "verify_failed" });
});

test("a stalled agent whose verify command passes ends with stall (success)", async () => {
  h = await harness({
    specs: [spec("root", ["read_file"], { verify })],
    script: { queue: [readA, readA, { text: "forced answer" }] },
  });
  writeFileSync(path.join(h.dir, "a.txt"), "a\n");
  writeFileSync(path.join(h.dir, "done.txt"), "yes\n");
  const result = await h.run("loop");
  expect(result).toMatchObject({ status: "success", finishReason: "stall", answer: "forced answer" });
});

test("a verify command the approver denies never runs: the run ends unverified (verify_failed)", async () => {
  const approver = scriptedApprover([{ kind: "deny" }]);
  h = await harness({
    specs: [spec("root", [], { verify: ["touch ran.txt"] })],
    approver,
    script: { queue: [{ text: "done" }] },
  });
  const result = await h.run("x");
  expect(existsSync(path.join(h.dir, "ran.txt"))).toBe(false);
  expect(approver.requests.map((r) => [r.tool, r.args.command])).toEqual([["exec", "touch ran.txt"]]);
  expect(approver.requests[0]?.preview).toContain("verify: command of root");
  expect(result).toMatchObject({ status: "failure", finishReason: "verify_failed" });
  expect(result.error?.message).toContain("not approved");
});
