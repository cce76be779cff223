import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ToolsFor } from "../../../src/agents/types.ts";
import { flagApprover, scriptedApprover } from "../../../src/policy/approvers.ts";
import { toolDefinitionsFor } from "../../../src/tools/registry.ts";
import type { Tool } from "../../../src/tools/types.ts";
import { type Harness, harness, spec, toolResultsIn } from "../harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.cleanup();
  h = undefined;
});

const done = { text: "finished" };

test("repairable malformed arguments are repaired and the call runs", async () => {
  h = await harness({
    specs: [spec("root", ["write_file"])],
    allow: ["write_file"],
    script: {
      queue: [
        { toolCalls: [{ name: "write_file", rawArguments: "{'path': 'fixed.txt', 'content': 'ok',}" }] },
        done,
      ],
    },
  });
  const result = await h.run("write");
  expect(result.finishReason).toBe("stop");
  expect(readFileSync(path.join(h.dir, "fixed.txt"), "utf8")).toBe("ok");
  expect(h.of("warning").some((w) => w.data.code === "tool_args_repaired")).toBe(true);
});

test("unrepairable arguments get an error result with the schema and the run goes on", async () => {
  h = await harness({
    specs: [spec("root", ["write_file"])],
    allow: ["write_file"],
    script: {
      queue: [
        { toolCalls: [{ name: "write_file", rawArguments: '{"path": "cut.txt", "content": "hal' }] },
        done,
      ],
    },
  });
  const result = await h.run("write");
  expect(result).toMatchObject({ status: "success", finishReason: "stop", answer: "finished" });
  const [r] = toolResultsIn(h, 1);
  expect(r?.isError).toBe(true);
  expect(r?.content).toContain("not valid JSON");
  expect(r?.content).toContain('"properties"');
  expect(r?.content).toContain('"content"');
  expect(existsSync(path.join(h.dir, "cut.txt"))).toBe(false);
});

test("an unknown tool gets an error naming the available tools; invalid arguments get the schema", async () => {
  h = await harness({
    specs: [spec("root", ["read_file", "glob"])],
    script: {
      queue: [
        {
          toolCalls: [
            { name: "list_dir", arguments: { path: "." } },
            { name: "read_file", arguments: { file: "x" } },
          ],
        },
        done,
      ],
    },
  });
  const result = await h.run("look");
  expect(result.finishReason).toBe("stop");
  const [unknown, invalid] = toolResultsIn(h, 1);
  expect(unknown).toMatchObject({ toolName: "list_dir", isError: true });
  expect(unknown?.content).toContain('unknown tool "list_dir"');
  expect(unknown?.content).toContain("read_file, glob");
  expect(invalid).toMatchObject({ toolName: "read_file", isError: true });
  expect(invalid?.content).toContain("schema");
  expect(invalid?.content).toContain('"path"');
});

test("a throwing tool becomes an error result and the run goes on", async () => {
  const boom: Tool = {
    name: "grep",
    kind: "primitive",
    description: "always throws",
    parameters: { type: "object", properties: {} },
    readOnly: true,
    concurrent: true,
    policyName: "grep",
    validate: (args) => ({ ok: true, value: args as Record<string, unknown> }),
    policyTarget: async () => ({ targets: [], sensitive: false }),
    preview: async () => "",
    execute: async () => {
      throw new Error("kaboom");
    },
  };
  const toolsFor: ToolsFor = (names, provider) => {
    const base = toolDefinitionsFor(names, provider);
    const primitives = new Map<string, Tool>(base.primitives);
    primitives.set("grep", boom);
    return { ...base, primitives };
  };
  h = await harness({
    specs: [spec("root", ["grep"])],
    script: { queue: [{ toolCalls: [{ name: "grep", arguments: {} }] }, done] },
  });
  const result = await h.run("grep", { toolsFor });
  expect(result.finishReason).toBe("stop");
  expect(toolResultsIn(h, 1)[0]).toMatchObject({ isError: true, content: "error: grep failed: kaboom" });
});

test("a write denied by the approver is not made and the model is told", async () => {
  h = await harness({
    specs: [spec("root", ["write_file"])],
    approver: flagApprover("deny"),
    script: {
      queue: [{ toolCalls: [{ name: "write_file", arguments: { path: "no.txt", content: "x" } }] }, done],
    },
  });
  const result = await h.run("write");
  expect(result).toMatchObject({ status: "success", finishReason: "stop" });
  expect(existsSync(path.join(h.dir, "no.txt"))).toBe(false);
  const [r] = toolResultsIn(h, 1);
  expect(r?.isError).toBe(true);
  expect(r?.content).toStartWith("DENIED: this action was not performed: write_file no.txt.");
  expect(r?.content).toContain("Do not say or imply that it was done");
  expect(r?.content).toContain("--allow 'write_file:no.txt'");
  expect(r?.content).toContain("approval");
  expect(h.of("approval_request")).toHaveLength(1);
  expect(h.of("approval_decision")[0]?.data.decision).toEqual({ kind: "deny" });
});

test("denial feedback reaches the model", async () => {
  h = await harness({
    specs: [spec("root", ["write_file"])],
    approver: scriptedApprover([{ kind: "deny_feedback", feedback: "use notes.md instead" }]),
    script: {
      queue: [{ toolCalls: [{ name: "write_file", arguments: { path: "no.txt", content: "x" } }] }, done],
    },
  });
  await h.run("write");
  expect(toolResultsIn(h, 1)[0]?.content).toContain("use notes.md instead");
});

test("--on-ask fail in a child ends the whole session with approval_needed", async () => {
  h = await harness({
    specs: [spec("root", ["editor"]), spec("editor", ["write_file"])],
    approver: flagApprover("fail"),
    script: {
      agents: {
        "agent:root;": [{ toolCalls: [{ name: "editor", arguments: { goal: "write" } }] }, done],
        "agent:editor;": [
          { toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "x" } }] },
          done,
        ],
      },
    },
  });
  const result = await h.run("write");
  expect(result).toMatchObject({ status: "error", finishReason: "approval_needed" });
  expect(result.error?.kind).toBe("approval");
  expect(existsSync(path.join(h.dir, "a.txt"))).toBe(false);
  expect(h.provider.requests).toHaveLength(2);
});

test("a tool call written as JSON text is executed; so is a fenced json block", async () => {
  h = await harness({
    specs: [spec("root", ["write_file"])],
    allow: ["write_file"],
    script: {
      queue: [
        { text: '{"name": "write_file", "arguments": {"path": "t1.txt", "content": "one"}}' },
        {
          text: 'Writing it now.\n```json\n{"name": "write_file", "arguments": {"path": "t2.txt", "content": "two"}}\n```',
        },
        { text: 'Done. Example of the format: {"name": "not_a_tool", "arguments": {}}' },
      ],
    },
  });
  const result = await h.run("write");
  expect(result.finishReason).toBe("stop");
  expect(readFileSync(path.join(h.dir, "t1.txt"), "utf8")).toBe("one");
  expect(readFileSync(path.join(h.dir, "t2.txt"), "utf8")).toBe("two");
  const second = h.provider.requests[2]?.request.messages.find(
    (m) => m.role === "assistant" && m.parts.some((p) => p.type === "text" && p.text === "Writing it now."),
  );
  expect(second?.role === "assistant" && second.parts.map((p) => p.type)).toEqual(["text", "tool_call"]);
  expect(result.answer).toContain("Done.");
});

test("mutating calls run in order, and reads after a write see it", async () => {
  h = await harness({
    specs: [spec("root", ["write_file", "read_file"])],
    allow: ["write_file"],
    script: {
      queue: [
        {
          toolCalls: [
            { name: "write_file", arguments: { path: "n.txt", content: "first" } },
            { name: "read_file", arguments: { path: "n.txt" } },
            { name: "write_file", arguments: { path: "n.txt", content: "second" } },
            { name: "read_file", arguments: { path: "n.txt" } },
          ],
        },
        done,
      ],
    },
  });
  await h.run("order");
  const results = toolResultsIn(h, 1);
  expect(results.map((r) => r.toolName)).toEqual(["write_file", "read_file", "write_file", "read_file"]);
  expect(results[1]?.content).toContain("first");
  expect(results[3]?.content).toContain("second");
  expect(readFileSync(path.join(h.dir, "n.txt"), "utf8")).toBe("second");
});

test("an edit whose old_string is not in the file gets the tool's error without a prompt; one that fits is asked about", async () => {
  // The approver would refuse anything it is asked: the failing edit must never reach it.
  const approver = scriptedApprover([{ kind: "deny" }]);
  h = await harness({
    specs: [spec("root", ["edit_file"])],
    approver,
    script: {
      queue: [
        {
          toolCalls: [
            { name: "edit_file", arguments: { path: "a.txt", old_string: "absent", new_string: "x" } },
          ],
        },
        {
          toolCalls: [
            { name: "edit_file", arguments: { path: "a.txt", old_string: "hello", new_string: "bye" } },
          ],
        },
        done,
      ],
    },
  });
  await Bun.write(path.join(h.dir, "a.txt"), "hello\n");
  const result = await h.run("edit");
  expect(result.status).toBe("success");
  const [failed] = toolResultsIn(h, 1);
  expect(failed?.isError).toBe(true);
  expect(failed?.content).toStartWith("Error: old_string not found in a.txt.");
  // Asked once: for the edit that would apply (and was refused); the failing one made no request.
  expect(approver.requests.map((r) => r.args.old_string)).toEqual(["hello"]);
  expect(h.of("approval_request")).toHaveLength(1);
  const ends = h.of("tool_end").map((e) => e.data.outcome);
  expect(ends).toEqual(["tool_error", "denied"]);
  expect(readFileSync(path.join(h.dir, "a.txt"), "utf8")).toBe("hello\n");
});
