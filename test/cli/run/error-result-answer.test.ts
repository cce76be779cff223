/**
 * docs/ci-and-json.md: "an error result (a missing key, a bad flag, a provider error) has no `answer`",
 * so `jq -r .answer` prints `null`; an `--on-ask fail` stop keeps its documented `"answer": ""`. A
 * provider error after the model already said something must not pass that text off as the answer.
 * `agent helper` (its own process) is in test/e2e/cli/helper/helper-error-results.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectJsonShape } from "../../support/json-shape.ts";
import { inProcessFixture } from "./in-process.ts";

const fixture = inProcessFixture();

describe("the JSON result of a provider error", () => {
  test("agent run -o json: exit 4 and no answer, though the model spoke before the failure", async () => {
    const { server, sandbox } = fixture;
    writeFileSync(join(sandbox.workspace, "a.txt"), "alpha\n");
    server.enqueue(
      { text: "Reading it.", toolCalls: [{ name: "read_file", args: { path: "a.txt" } }] },
      { status: 401, errorMessage: "invalid x-api-key" },
    );
    const result = await fixture.run(["run", "-o", "json", "Read a.txt"]);
    expect(result.code).toBe(4);
    const output = JSON.parse(result.stdout) as Record<string, unknown>;
    expectJsonShape(output);
    expect(output).toMatchObject({ status: "error", finish_reason: "provider_error", exit_code: 4 });
    expect("answer" in output).toBe(false);
  });

  test("agent run -o stream-json: the result line has no answer", async () => {
    fixture.server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const result = await fixture.run(["run", "-o", "stream-json", "hi"]);
    expect(result.code).toBe(4);
    const last = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
    expect(last).toMatchObject({ type: "result", status: "error", finish_reason: "provider_error" });
    expect("answer" in last).toBe(false);
  });
});
