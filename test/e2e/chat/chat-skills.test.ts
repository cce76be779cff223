/**
 * Skills in `agent chat` on a real terminal (tmux): typing `/` lists the user-invocable skills with the
 * built-in commands; `/greet Ada` activates the skill (its body with the arguments reaches the model) and
 * the activation shows with the skill's path.
 */
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlmServer } from "../../support/fake-llm-server.ts";
import { type E2eSandbox, freshServer, makeE2eSandbox } from "../support.ts";
import { startTerminal, TEST_TIMEOUT_MS, tmux, withTerminal } from "../tmux.ts";

let server: FakeLlmServer;
freshServer((s) => {
  server = s;
});

/** Writes the project skill `greet` (user-invocable, one argument) into the sandbox's workspace. */
function writeGreetSkill(sandbox: E2eSandbox): void {
  const dir = join(sandbox.workspace, ".agents", "skills", "greet");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "SKILL.md"),
    "---\nname: greet\ndescription: Greets someone by name.\nargument-hint: NAME\n---\nGreet $ARGUMENTS in one line.\n",
  );
}

test(
  "chat -c after /greet Ada shows and recalls the line as typed, not the skill's body",
  async () => {
    const sandbox = makeE2eSandbox();
    writeGreetSkill(sandbox);
    server.enqueue({ text: "Hello, Ada!" });
    // The first chat's tmux session ends here; the sandbox lives on for the second (withTerminal removes it).
    const first = startTerminal(["chat"], { server, sandbox });
    try {
      await first.waitForScreen(/Enter send/, "the input box");
      first.send("/greet Ada");
      await first.waitForScreen(/Hello, Ada!/, "the answer");
      await first.waitForScreen(/Enter send/, "the input box again");
      expect(await first.exitAfter("C-d")).toBe(0);
    } catch (error) {
      sandbox.cleanup();
      throw error;
    } finally {
      tmux("kill-session", "-t", first.name);
    }
    await withTerminal(["chat", "-c"], { server, sandbox }, async (run) => {
      await run.waitForScreen(/continuing session/, "the continue note");
      const screen = run.screen();
      expect(screen).toContain("▸ you: /greet Ada");
      expect(screen).not.toContain("Greet Ada in one line.");
      // ↑ recalls the line as typed.
      run.press("Up");
      await run.waitForScreen(/› \/greet Ada/, "the recalled line in the input box");
      expect(run.screen()).not.toContain("Greet Ada in one line.");
      expect(await run.exitAfter("C-u", "C-d")).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  "chat: the / menu lists a skill; /greet Ada activates it with its arguments",
  async () => {
    server.enqueue({ text: "Hello, Ada!" });
    await withTerminal(
      ["chat"],
      {
        server,
        prepare: (sandbox) => {
          const dir = join(sandbox.workspace, ".agents", "skills", "greet");
          mkdirSync(dir, { recursive: true });
          writeFileSync(
            join(dir, "SKILL.md"),
            "---\nname: greet\ndescription: Greets someone by name.\nargument-hint: NAME\n---\nGreet $ARGUMENTS in one line.\n",
          );
        },
      },
      async (run) => {
        await run.waitForScreen(/Enter send/, "the input box");
        run.type("/gr");
        await run.waitForScreen(/\/greet.*Greets someone by name\./, "the skill in the / menu");
        run.send("eet Ada");
        await run.waitForScreen(/Hello, Ada!/, "the answer");
        await run.waitForScreen(
          /skill greet activated by you \(project .*SKILL\.md\)/,
          "the activation line",
        );
        expect(JSON.stringify(server.requests[0]?.body)).toContain("Greet Ada in one line.");
        // The screen shows the line as typed, not the instructions it expanded to.
        const screen = run.screen();
        expect(screen).toContain("▸ you: /greet Ada");
        expect(screen).not.toContain("Greet Ada in one line.");
        expect(screen).not.toContain("root: ");
        expect(await run.exitAfter("C-d")).toBe(0);
      },
    );
  },
  TEST_TIMEOUT_MS,
);
