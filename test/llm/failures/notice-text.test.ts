/** Retry lines read their wait as other durations do (kernel/text/duration-text.ts): never `in 0.0s`. */
import { describe, expect, test } from "bun:test";
import type { ProviderError } from "../../../src/kernel/index.ts";
import { formatDuration } from "../../../src/kernel/text/duration-text.ts";
import { describeNotice } from "../../../src/llm/notice-text.ts";

const error: ProviderError = {
  kind: "overloaded",
  message: "overloaded",
  provider: "anthropic",
  model: "claude-x",
  status: 529,
};
const retry = (delayMs: number) => describeNotice({ type: "retry", attempt: 2, delayMs, error });

describe("retry lines", () => {
  test("a wait under a second is in milliseconds; longer ones in seconds with one decimal", () => {
    expect(retry(38.4)).toBe("anthropic claude-x: overloaded 529; retry 2 in 38ms");
    expect(retry(0.2)).toBe("anthropic claude-x: overloaded 529; retry 2 in 0ms");
    expect(retry(999.4)).toBe("anthropic claude-x: overloaded 529; retry 2 in 999ms");
    expect(retry(999.6)).toBe("anthropic claude-x: overloaded 529; retry 2 in 1.0s");
    expect(retry(7_812)).toBe("anthropic claude-x: overloaded 529; retry 2 in 7.8s");
  });

  test("the same text as every other duration the views print", () => {
    for (const ms of [12, 450, 1_234, 75_000]) expect(retry(ms)).toEndWith(` in ${formatDuration(ms)}`);
    expect(formatDuration(75_000)).toBe("1m15s");
  });
});
