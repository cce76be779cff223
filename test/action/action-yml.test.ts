/**
 * action.yml's shape, the part no end-to-end run shows: no input is ever interpolated into shell text,
 * every input reaches the run step as the variable run.ts reads, the third-party actions are pinned to a
 * commit, and the Bun it installs is the one this checkout pins.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { inputVariable, PROVIDER_INPUTS } from "../../scripts/action/inputs.ts";
import { readAction } from "./composite-runner.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
const action = readAction(join(ROOT, "action.yml"));

describe("action.yml", () => {
  test("no run: text holds an expression: inputs reach scripts only through env", () => {
    const runs = action.runs.steps.filter((s) => s.run !== undefined);
    expect(runs.length).toBeGreaterThan(0);
    for (const step of runs) expect(step.run).not.toContain("${{");
  });

  test("every input is mapped to its INPUT_ variable in the run step, and nothing else is", () => {
    const run = action.runs.steps.find((s) => s.id === "run");
    const env = Object.entries(run?.env ?? {}).filter(([name]) => name.startsWith("INPUT_"));
    const expected = Object.keys(action.inputs)
      .filter((name) => name !== "bun-version")
      .map((name): [string, string] => [inputVariable(name), `\${{ inputs.${name} }}`]);
    expect(env.sort()).toEqual(expected.sort());
    // The provider variables themselves are set by run.ts for agent only, never for the whole step.
    for (const variable of Object.values(PROVIDER_INPUTS)) expect(run?.env?.[variable]).toBeUndefined();
  });

  test("the outputs are the run step's", () => {
    expect(Object.keys(action.outputs).sort()).toEqual([
      "answer",
      "cost-usd",
      "exit-code",
      "session-file",
      "status",
    ]);
    for (const [name, spec] of Object.entries(action.outputs)) {
      expect(spec.value).toBe(`\${{ steps.run.outputs.${name} }}`);
    }
  });

  test("third-party actions are pinned to a full commit", () => {
    const uses = action.runs.steps.flatMap((s) => (s.uses === undefined ? [] : [s.uses]));
    expect(uses.length).toBe(3);
    for (const ref of uses) expect(ref).toMatch(/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/);
  });

  test("the default Bun is the version package.json pins", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: { bun: string };
    };
    expect(action.inputs["bun-version"]?.default).toBe(pkg.dependencies.bun);
  });
});
