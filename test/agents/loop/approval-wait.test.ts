/**
 * A tool's time is the time it ran: the wait for a person at the approval prompt is left out of tool_end's
 * durationMs, which the screen, plain progress and `agent sessions show` print (docs/chat.md). The clock is
 * the run's own (`now`), moved only by the approver, so the test waits for no real time.
 */
import { afterEach, expect, test } from "bun:test";
import type { Approver } from "../../../src/kernel/index.ts";
import { formatSession } from "../../../src/session/format-session.ts";
import { type Harness, harness, spec } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

test("the 10.3 s a person took to answer the prompt is not the edit's time, on screen or in sessions show", async () => {
  let clock = 1_000_000;
  let asked = 0;
  const person: Approver = {
    decide: async () => {
      asked += 1;
      clock += 10_300;
      return { kind: "once" };
    },
  };
  h = await harness({
    specs: [spec("root", ["write_file"])],
    approver: person,
    script: {
      queue: [{ toolCalls: [{ name: "write_file", arguments: { path: "greet.js", content: "hi\n" } }] }],
      fallback: () => ({ text: "written" }),
    },
  });
  const result = await h.run("write greet.js", { now: () => clock });
  expect(result.finishReason).toBe("stop");
  expect(asked).toBe(1);
  const end = h.of("tool_end")[0];
  expect(end?.data.isError).toBe(false);
  expect(end?.data.durationMs).toBe(0);
  expect(formatSession(h.events)).toContain("✓ write_file");
  expect(formatSession(h.events)).not.toContain("10300 ms");
});
