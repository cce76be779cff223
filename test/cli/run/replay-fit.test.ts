/**
 * A `--replay` cassette that does not fit the run is a usage error (docs/ci-and-json.md, exit 2): one
 * that runs out before the run ends, strict or `--replay-loose`, and one recorded for another goal. The
 * message is printed once, the JSON result has no `answer`, and the cassette is recorded through the fake
 * server first, as a user would with a real key. `agent helper` (its own process) is in
 * test/e2e/cli/helper/helper-error-results.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expectJsonShape } from "../../support/json-shape.ts";
import { inProcessFixture } from "./in-process.ts";

const fixture = inProcessFixture();
const GOAL = "Read a.txt and say what it holds";

/** Records a two-turn run (a read_file call, then the answer) and keeps only its first exchange. */
async function shortCassette(): Promise<string> {
  const { server, sandbox } = fixture;
  writeFileSync(join(sandbox.workspace, "a.txt"), "alpha\n");
  server.enqueue(
    {
      text: "Reading it.",
      toolCalls: [{ name: "read_file", args: { path: "a.txt" } }],
      usage: { input: 1000, output: 200 },
    },
    { text: "It holds alpha.", usage: { input: 1200, output: 100 } },
  );
  const cassette = join(sandbox.dir, "run.cassette.jsonl");
  const recorded = await fixture.run(["run", "--record", cassette, GOAL]);
  expect(recorded.code).toBe(0);
  const lines = readFileSync(cassette, "utf8").trim().split("\n");
  expect(lines).toHaveLength(3);
  writeFileSync(cassette, `${lines.slice(0, 2).join("\n")}\n`);
  return cassette;
}

/** Replays with no key at all: nothing may reach the network. */
function replay(args: string[]) {
  return fixture.run(args, fixture.sandbox.env());
}

describe("a cassette that runs out", () => {
  for (const loose of [[], ["--replay-loose"]]) {
    const label = loose.length > 0 ? "--replay-loose" : "--replay";
    test(`${label}, JSON: exit 2, kind usage, no answer`, async () => {
      const cassette = await shortCassette();
      const result = await replay(["run", "-o", "json", "--replay", cassette, ...loose, GOAL]);
      expect(result.code).toBe(2);
      const output = JSON.parse(result.stdout) as Record<string, unknown>;
      expectJsonShape(output);
      expect(output).toMatchObject({
        status: "error",
        exit_code: 2,
        error: {
          kind: "usage",
          message: expect.stringContaining("holds 1 turn and the run asked for turn 2"),
        },
      });
      expect("answer" in output).toBe(false);
      expect(result.stdout.trim().split("\n")).toHaveLength(1);
    });
  }

  test("text: exit 2, the message once on stderr, nothing on stdout", async () => {
    const cassette = await shortCassette();
    const result = await replay(["run", "--replay", cassette, GOAL]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.split("holds 1 turn and the run asked for turn 2")).toHaveLength(2);
  });

  test("stream-json: exit 2, the last line a usage error result", async () => {
    const cassette = await shortCassette();
    const result = await replay(["run", "-o", "stream-json", "--replay", cassette, GOAL]);
    expect(result.code).toBe(2);
    const last = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
    expect(last).toMatchObject({ status: "error", exit_code: 2, error: { kind: "usage" } });
    expect("answer" in last).toBe(false);
  });
});

describe("a cassette recorded for another goal", () => {
  test("text: the mismatch is printed once on stderr", async () => {
    const cassette = await shortCassette();
    const result = await replay(["run", "--replay", cassette, "Say goodbye"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("does not match the recording")).toHaveLength(2);
  });
});
