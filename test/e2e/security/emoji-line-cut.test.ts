/**
 * A workspace file whose long line is cut inside an emoji (read_file keeps 2,000 characters of a line):
 * the cut keeps whole characters, so the next request is one the Anthropic API accepts (the fake server
 * refuses half an emoji as the API does) and the run finishes.
 */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshServerAndSandbox } from "../support.ts";

const fixture = freshServerAndSandbox();

test("read_file of a line cut inside an emoji: the run goes on and finishes", async () => {
  const { server, sandbox } = fixture;
  writeFileSync(join(sandbox.workspace, "wide.txt"), `${"a".repeat(1999)}${"😀".repeat(100)}\n`);
  server.enqueue({ toolCalls: [{ name: "read_file", args: { path: "wide.txt" } }] }, { text: "read it" });
  const out = await fixture.runAgent(["helper", "--tools", "read_file", "Read wide.txt"]);
  expect(out.stderr).not.toContain("no low surrogate");
  expect(out.code).toBe(0);
  expect(out.stdout.trim()).toBe("read it");
  const sent = JSON.stringify(server.requests.at(-1)?.body);
  expect(sent).toContain("[line cut: 200 more characters]");
});
