/**
 * The one JSON shape (docs/ci-and-json.md "Machine-readable output", schema 2), walked over real output of
 * `agent helper --json` with and without `--tools`, and failing, as bin/agent (the helper command has no
 * in-process entry yet; `agent run`'s output: test/cli/ci/json-keys.test.ts). Every key at every depth
 * must be snake_case, except inside a tool call's arguments, which are the model's own.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nonSnakeKeys } from "../../support/json-shape.ts";
import { anthropicEnv, freshServerAndSandbox, parseJsonLines, runAgentIn } from "../support.ts";

const fx = freshServerAndSandbox();

/** A model argument name that is not snake_case: it must reach the output unchanged. */
const MODEL_ARG = { path: "notes.txt", maxLines: 2 };

describe("every key of the JSON output is snake_case", () => {
  test("agent helper --json, one call and with --tools", async () => {
    fx.server.enqueue(
      { text: "blue", usage: { input: 12, output: 3, cacheRead: 4 } },
      {
        toolCalls: [
          { name: "read_file", args: MODEL_ARG },
          { name: "exec", args: { command: "rm -rf notes.txt" } },
        ],
      },
      { text: "42" },
    );
    writeFileSync(join(fx.sandbox.workspace, "notes.txt"), "some notes\n");
    mkdirSync(join(fx.sandbox.workspace, ".agent"));
    writeFileSync(join(fx.sandbox.workspace, ".agent", "config.yaml"), "rules:\n  deny: ['exec:rm *']\n");
    const env = anthropicEnv(fx.sandbox, fx.server);
    const single = await runAgentIn(fx.sandbox, ["helper", "--json", "what colour?"], env);
    const tools = await runAgentIn(
      fx.sandbox,
      ["helper", "--tools", "read_file,exec", "-o", "json", "answer"],
      env,
    );
    for (const result of [single, tools]) {
      expect(result.code).toBe(0);
      expect(nonSnakeKeys(parseJsonLines(result.stdout))).toEqual([]);
    }
    expect(parseJsonLines(tools.stdout)[0]?.denials).toHaveLength(1);
    fx.server.enqueue({ status: 401, errorMessage: "invalid x-api-key" });
    const failed = await runAgentIn(fx.sandbox, ["helper", "--json", "hi"], env);
    expect(failed.code).toBe(4);
    expect(parseJsonLines(failed.stdout)[0]).toMatchObject({ status: "error" });
    expect(nonSnakeKeys(parseJsonLines(failed.stdout))).toEqual([]);
  });
});
