import { describe, expect, test } from "bun:test";
import { errorsForRun, modelNameCheck } from "../../../src/agents/spec/spec-checks.ts";
import { formatSpecError, loadSpecTexts } from "../../../src/agents/spec/spec-loader.ts";

const spec = (name: string, lines: string[] = []): string =>
  [`name: ${name}`, `description: does ${name} things`, `system_prompt: you are ${name}`, ...lines, ""].join(
    "\n",
  );

/** No keys: names are checked, credentials are not. */
const check = modelNameCheck({});

describe("spec checks shared by validate and run", () => {
  test("an unresolvable model is an error at its line; tiers, provider:model and detected ids are fine", () => {
    const result = loadSpecTexts(
      [
        { file: "a.yaml", text: spec("a", ["model: turbo"]) },
        { file: "b.yaml", text: spec("b", ["model: fast"]) },
        { file: "c.yaml", text: spec("c", ["model: anthropic:claude-haiku-4-5"]) },
        { file: "d.yaml", text: spec("d", ["model: gpt-6-luna"]) },
        { file: "e.yaml", text: spec("e", ["model: nowhere:x"]) },
      ],
      check,
    );
    expect([...result.specs.keys()].sort()).toEqual(["b", "c", "d"]);
    expect(result.errors.map(formatSpecError)).toEqual([
      expect.stringMatching(
        /^a\.yaml:4: model: expected a tier \(fast, good, best, smart, auto\), provider:model or a model id: cannot tell which provider serves "turbo"/,
      ),
      expect.stringMatching(/^e\.yaml:4: model: expected .*unknown provider "nowhere"/),
    ]);
  });

  test("every error of a file in one pass: schema, capabilities and model together", () => {
    const result = loadSpecTexts(
      [
        {
          file: "x.yaml",
          text: spec("x", [
            "model: turbo",
            "capabilities: [read_file, teleport]",
            "constraints: { max_turns: lots }",
          ]),
        },
      ],
      check,
    );
    // In file order (model at line 4, capabilities at 5, constraints at 6), as a person reads the file.
    expect(result.errors.map((e) => e.field)).toEqual(["model", "capabilities[1]", "constraints.max_turns"]);
    expect(result.errors.every((e) => e.agent === "x")).toBe(true);
  });

  test("agents:* offers every other valid agent; an explicit list gets exactly that list", () => {
    const result = loadSpecTexts([
      { file: "boss.yaml", text: spec("boss", ["capabilities: [zed, agents:*]"]) },
      { file: "picky.yaml", text: spec("picky", ["capabilities: [zed]"]) },
      { file: "zed.yaml", text: spec("zed", ["capabilities: [read_file]"]) },
      { file: "alpha.yaml", text: spec("alpha", ["capabilities: [grep]"]) },
      { file: "broken.yaml", text: spec("broken", ["capabilities: [nothing]"]) },
    ]);
    // Listed first, then the rest by name; never itself, never an invalid spec.
    expect(result.specs.get("boss")?.capabilities).toEqual(["zed", "alpha", "picky"]);
    expect(result.specs.get("picky")?.capabilities).toEqual(["zed"]);
    expect(result.errors.map((e) => e.agent)).toEqual(["broken"]);
  });

  test("agents:* with can_spawn false is an error", () => {
    const result = loadSpecTexts([
      {
        file: "solo.yaml",
        text: spec("solo", ["capabilities: [agents:*]", "constraints: { can_spawn: false }"]),
      },
    ]);
    expect(result.errors[0]?.message).toContain("names every agent but constraints.can_spawn is false");
  });

  test("for a run, errors of specs the chosen agent reaches are fatal, the others warnings", () => {
    const result = loadSpecTexts(
      [
        { file: "root.yaml", text: spec("root", ["capabilities: [worker, agents:*]"]) },
        { file: "worker.yaml", text: spec("worker", ["capabilities: [read_file]"]) },
        { file: "unused.yaml", text: spec("unused", ["model: turbo"]) },
        { file: "junk.yaml", text: "name: [unclosed\n" },
      ],
      check,
    );
    const run = errorsForRun("root", result.errors, result.graph);
    expect(run.fatal).toEqual([]);
    expect(run.warnings.map((e) => e.agent).sort()).toEqual(["junk", "unused"]);
    // Choosing the broken agent itself, or one that names it, makes its errors fatal.
    expect(errorsForRun("unused", result.errors, result.graph).fatal.map((e) => e.agent)).toEqual(["unused"]);
    const naming = loadSpecTexts(
      [
        { file: "lead.yaml", text: spec("lead", ["capabilities: [helper]"]) },
        { file: "helper.yaml", text: spec("helper", ["model: turbo"]) },
      ],
      check,
    );
    expect(
      errorsForRun("lead", naming.errors, naming.graph)
        .fatal.map((e) => e.agent)
        .sort(),
    ).toEqual(["helper", "lead"]);
  });
});
