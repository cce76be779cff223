import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Harness, harness, spec } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const verify = ["test -f done.txt || { echo 'done.txt is missing'; exit 1; }"];

test("a failing verify command reaches the model; a later success finishes the run", async () => {
  h = await harness({
    specs: [spec("root", ["write_file"], { verify })],
    allow: ["write_file"],
    script: {
      queue: [
        { text: "All done." },
        { toolCalls: [{ name: "write_file", arguments: { path: "done.txt", content: "yes" } }] },
        { text: "Now really done." },
      ],
    },
  });
  const result = await h.run("make done.txt");
  expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "Now really done." });
  const feedback = h.provider.requests[1]?.request.messages.at(-1);
  expect(feedback?.role).toBe("user");
  expect(feedback?.role === "user" && feedback.content).toContain("done.txt is missing");
  expect(feedback?.role === "user" && feedback.content).toContain("exit code 1");
  const commands = h.of("verify").filter((e) => e.data.step === "command");
  expect(commands.map((e) => e.data.ok)).toEqual([false, true]);
});

test("verification that keeps failing ends with verify_failed", async () => {
  h = await harness({
    specs: [spec("root", [], { verify })],
    script: { fallback: () => ({ text: "done, trust me" }) },
  });
  const result = await h.run("x", { limits: { maxVerifyAttempts: 2 } });
  expect(result).toMatchObject({
    status: "failure",
    finishReason: "verify_failed",
    answer: "done, trust me",
  });
  expect(h.provider.requests).toHaveLength(2);
});

test("tool results are judged and learn signals written when can_learn is on", async () => {
  h = await harness({
    specs: [
      spec("root", ["read_file"], {
        constraints: { max_turns: 5, max_depth: 0, timeout_ms: 60_000, can_spawn: false, can_learn: true },
      }),
    ],
    script: {
      queue: [
        {
          toolCalls: [
            { name: "read_file", arguments: { path: "missing.txt" } },
            { name: "nope", arguments: {} },
          ],
        },
        { text: "ok" },
      ],
    },
  });
  await h.run("learn");
  const signals = h.of("learn_signal").map((e) => [e.data.signal, e.data.tool]);
  expect(signals).toEqual([
    ["failure", "read_file"],
    ["stumble", "nope"],
  ]);
  const lines = readFileSync(path.join(h.dir, ".state", "learn.jsonl"), "utf8")
    .trim()
    .split("\n");
  expect(lines.map((l) => JSON.parse(l).signal)).toEqual(["failure", "stumble"]);
  expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
    agent: "root",
    session: "test-session",
    tool: "read_file",
  });
});

test("no learn file is written when can_learn is off", async () => {
  h = await harness({
    specs: [spec("root", ["read_file"])],
    script: {
      queue: [{ toolCalls: [{ name: "read_file", arguments: { path: "missing.txt" } }] }, { text: "ok" }],
    },
  });
  await h.run("learn");
  expect(h.of("learn_signal")).toHaveLength(1);
  expect(existsSync(path.join(h.dir, ".state", "learn.jsonl"))).toBe(false);
});

test("a verify command past its timeout counts as failed and the model is told", async () => {
  h = await harness({
    // Only the verify timeout can end this command within the test's own timeout.
    specs: [spec("root", [], { verify: ["sleep 600"] })],
    script: { fallback: () => ({ text: "done" }) },
  });
  const result = await h.run("x", { limits: { verifyTimeoutMs: 200, maxVerifyAttempts: 2 } });
  expect(result.finishReason).toBe("verify_failed");
  const feedback = h.provider.requests[1]?.request.messages.at(-1);
  expect(feedback?.role === "user" && feedback.content).toContain("Verification timed out");
});
