/**
 * Pieces shared by the `agent run` tests in-process (test/cli/run) and as a process (test/e2e/run): the
 * scripted delegation (root asks code-editor to write hello.txt) and the stream-json contract check.
 */
import { expect } from "bun:test";
import { parseJsonLines } from "../e2e/support.ts";
import type { FakeTurn } from "./fake-llm-server.ts";
import { expectJsonShape } from "./json-shape.ts";

/** The goal the delegation turns answer. */
export const DELEGATION_GOAL = "Create hello.txt";

/** root delegates to code-editor, which writes hello.txt, answers, and root answers "Done.". */
export function delegationTurns(childAnswer = "Created hello.txt.", rootAnswer = "Done."): FakeTurn[] {
  return [
    { toolCalls: [{ name: "code-editor", args: { goal: "Create hello.txt containing: Hello, world" } }] },
    { toolCalls: [{ name: "write_file", args: { path: "hello.txt", content: "Hello, world\n" } }] },
    { text: childAnswer },
    { text: rootAnswer },
  ];
}

export interface StreamLine extends Record<string, unknown> {
  type: string;
}

/** Checks the stream-json contract of DESIGN "Command line" and returns the lines. */
export function checkStreamJson(stdout: string, exitCode: number): StreamLine[] {
  const lines = parseJsonLines(stdout) as StreamLine[];
  expect(lines.length).toBeGreaterThan(2);
  expect(lines[0]?.schema_version).toBe(2);
  expectJsonShape(lines);
  for (const line of lines) expect(typeof line.type).toBe("string");
  const results = lines.filter((line) => line.type === "result");
  expect(results).toHaveLength(1);
  const result = lines.at(-1);
  expect(result?.type).toBe("result");
  expect(result?.exit_code).toBe(exitCode);
  for (const line of lines.slice(1, -1)) {
    expect(typeof line.agent).toBe("string");
    expect(typeof line.depth).toBe("number");
    if (line.depth === 0) expect(line.parent).toBeUndefined();
    else expect(typeof line.parent).toBe("string");
  }
  return lines;
}
