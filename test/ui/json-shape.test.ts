import { describe, expect, test } from "bun:test";
import { errorRecord, SCHEMA_VERSION, snakeCaseKeys } from "../../src/ui/json-shape.ts";

describe("snakeCaseKeys", () => {
  test("camelCase keys become snake_case at every depth, arrays included", () => {
    expect(
      snakeCaseKeys({
        isError: true,
        durationMs: 3,
        toolCalls: [{ callId: "a" }],
        usage: { inputTokens: 1 },
      }),
    ).toEqual({ is_error: true, duration_ms: 3, tool_calls: [{ call_id: "a" }], usage: { input_tokens: 1 } });
  });

  test("tool-call args are the model's own and stay verbatim", () => {
    expect(snakeCaseKeys({ args: { oldString: "x", nested: { camelKey: 1 } } })).toEqual({
      args: { oldString: "x", nested: { camelKey: 1 } },
    });
  });

  test("so do the arguments of a tool call in a message; the call's own keys are converted", () => {
    const part = {
      type: "tool_call",
      id: "t1",
      name: "read_file",
      rawArguments: "{",
      arguments: { maxLines: 2 },
    };
    expect(snakeCaseKeys({ message: { role: "assistant", parts: [part] } })).toEqual({
      message: {
        role: "assistant",
        parts: [
          { type: "tool_call", id: "t1", name: "read_file", raw_arguments: "{", arguments: { maxLines: 2 } },
        ],
      },
    });
  });

  test("every *cost_usd number is rounded to 6 decimals", () => {
    expect(snakeCaseKeys({ costUsd: 0.000021200000000000004, subtree: { costUsd: 0.1 + 0.2 } })).toEqual({
      cost_usd: 0.000021,
      subtree: { cost_usd: 0.3 },
    });
  });
});

test("errorRecord is the one error object of schema 2", () => {
  expect(SCHEMA_VERSION).toBe(2);
  expect(errorRecord("config", "no key", 3)).toEqual({
    type: "result",
    schema_version: 2,
    status: "error",
    error: { kind: "config", message: "no key" },
    exit_code: 3,
  });
});
