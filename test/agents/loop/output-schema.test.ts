/**
 * `--schema` in the agent loop: the top agent's requests carry the schema (children's do not), a stall's
 * forced answer is checked without a re-ask, and a limit's partial answer is kept only when it matches.
 */
import { afterEach, expect, test } from "bun:test";
import { compileOutputSchema } from "../../../src/agents/loop/output-schema.ts";
import { type Harness, harness, spec } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const outputSchema = await compileOutputSchema({
  name: "count",
  schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
});

test("only the top agent's requests carry the schema; the child's answer is free text", async () => {
  h = await harness({
    specs: [spec("root", ["worker"]), spec("worker", [])],
    script: {
      agents: {
        "agent:root;": [
          { toolCalls: [{ name: "worker", arguments: { goal: "count" } }] },
          { text: '{"n": 3}' },
        ],
        "agent:worker;": [{ text: "three files" }],
      },
    },
  });
  const result = await h.run("count", { outputSchema });
  expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: '{"n":3}' });
  const carried = h.provider.requests.map((r) => r.request.responseSchema?.name ?? null);
  expect(carried).toEqual(["count", null, "count"]);
});

test("a stall's forced answer that does not match ends invalid_output without a re-ask", async () => {
  const same = { text: "still looking", toolCalls: [{ name: "glob", arguments: { pattern: "*" } }] };
  h = await harness({
    specs: [spec("root", ["glob"])],
    script: { queue: [same, same, { text: "about 3" }] },
  });
  const result = await h.run("count", { outputSchema });
  expect(result).toMatchObject({ status: "failure", finishReason: "invalid_output", answer: "" });
  expect(result.error?.kind).toBe("schema");
  expect(h.provider.requests).toHaveLength(3);
});

test("a limit keeps a partial answer only when it matches the schema", async () => {
  const endless = (_: unknown, i: number) => ({
    text: i === 0 ? '{"n": 1}' : "still counting",
    toolCalls: [{ name: "glob", arguments: { pattern: `step-${i}-*` } }],
  });
  h = await harness({ specs: [spec("root", ["glob"])], script: { fallback: endless } });
  expect(await h.run("count", { outputSchema, limits: { maxTurns: 1 } })).toMatchObject({
    finishReason: "max_turns",
    answer: '{"n":1}',
  });
  await h.cleanup();
  h = await harness({ specs: [spec("root", ["glob"])], script: { fallback: endless } });
  expect(await h.run("count", { outputSchema, limits: { maxTurns: 2 } })).toMatchObject({
    finishReason: "max_turns",
    answer: "",
  });
});
