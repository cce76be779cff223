/**
 * `agent run "/name args"` on a terminal (tmux): the goal line shows what was typed, and the skill's
 * activation line; the skill's body, which the model gets, is not printed.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { freshServer } from "../support.ts";
import { TEST_TIMEOUT_MS, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

test(
  'agent run "/greet Ada" shows the typed line as the goal, not the skill body',
  async () => {
    server.enqueue({ text: "Hello Ada." });
    const prepare = ({ workspace }: { workspace: string }): void => {
      const dir = join(workspace, ".agents", "skills", "greet");
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "SKILL.md"),
        "---\nname: greet\ndescription: Greets a person.\n---\nSay hello to $0 warmly.\n",
      );
    };
    await withTerminal(["run", "/greet Ada"], { server, prepare }, async (run) => {
      expect(await run.exitStatus()).toBe(0);
      const screen = run.screen();
      expect(screen).toMatch(/▸ root: \/greet Ada$/m);
      expect(screen).toContain("skill greet activated");
      expect(screen).not.toContain("Say hello to Ada warmly");
      expect(screen).not.toContain("<skill");
      expect(JSON.stringify(server.requests[0]?.body)).toContain("Say hello to Ada warmly.");
    });
  },
  TEST_TIMEOUT_MS,
);
