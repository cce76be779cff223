import { afterEach, expect, test } from "bun:test";
import { type Harness, harness, spec } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

test("a running exec reports its output as tool_output events before its tool_end, which has the last lines", async () => {
  h = await harness({
    specs: [spec("root", ["exec"])],
    script: {
      queue: [
        {
          toolCalls: [
            { name: "exec", arguments: { command: "printf 'one\\ntwo\\n'; sleep 0.3; echo three" } },
          ],
        },
      ],
      fallback: () => ({ text: "ran it" }),
    },
  });
  const result = await h.run("run it");
  expect(result.finishReason).toBe("stop");
  const kinds = h.events.map((e) => e.kind).filter((k) => k.startsWith("tool_"));
  expect(kinds[0]).toBe("tool_start");
  expect(kinds.at(-1)).toBe("tool_end");
  const outputs = h.of("tool_output");
  expect(outputs.length).toBeGreaterThanOrEqual(1);
  // The first chunk is reported at once (how the shell splits "one\ntwo\n" into chunks is its own).
  expect(outputs[0]?.data.tool).toBe("exec");
  expect(outputs[0]?.data.lines[0]).toBe("one");
  expect(h.of("tool_end")[0]?.data).toMatchObject({
    summary: "exit code 0, 3 lines",
    tail: ["one", "two", "three"],
  });
});
