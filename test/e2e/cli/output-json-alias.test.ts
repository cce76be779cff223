/**
 * `-o json` works wherever `--json` does (issue 21, newcomer item 8): the listing commands print exactly
 * what their `--json` prints, and `-o text` keeps the table.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { makeSandbox, runAgent } from "../../cli/run-agent.ts";

const sandbox = makeSandbox();
afterAll(() => sandbox.cleanup());

describe.each(["mcp list", "models", "sessions list", "skills list", "agents list"])(
  "agent %s",
  (command) => {
    const args = command.split(" ");
    test("-o json prints what --json prints; -o text what no flag prints", async () => {
      const env = sandbox.env();
      const json = await runAgent([...args, "--json"], { env });
      const alias = await runAgent([...args, "-o", "json"], { env });
      expect(json.code).toBe(0);
      expect(alias).toEqual(json);
      expect(() => JSON.parse(alias.stdout)).not.toThrow();
      const text = await runAgent([...args, "-o", "text"], { env });
      expect(text).toEqual(await runAgent(args, { env }));
      const bad = await runAgent([...args, "-o", "yaml"], { env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("Allowed choices are text, json");
    });
  },
);
