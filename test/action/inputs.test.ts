/**
 * The inputs as run.ts reads them (the INPUT_* variables action.yml sets) and the `agent run` argument
 * list built from them: one element per flag and value, rules one per non-blank line, paths against the
 * workspace, and an error naming the input for what cannot work.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentRunArgs } from "../../scripts/action/agent-argv.ts";
import { InputError, readInputs } from "../../scripts/action/inputs.ts";

const workspace = mkdtempSync(join(tmpdir(), "action-inputs-"));
mkdirSync(join(workspace, "sub"));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const env = (inputs: Record<string, string>) => ({ GITHUB_WORKSPACE: workspace, ...inputs });

describe("action inputs", () => {
  test("every input becomes its own --flag=value element; the goal is read from stdin (-)", () => {
    const inputs = readInputs(
      env({
        INPUT_PROMPT: "  --help; $(id)  ",
        INPUT_MODEL: "-m evil",
        INPUT_ALLOW: "exec:npm test*\n\n  edit_file:src/**  \r\n",
        INPUT_DENY: "exec:rm *",
        INPUT_MAX_TURNS: "7",
        INPUT_ON_ASK: "fail",
        INPUT_WORKING_DIRECTORY: "sub",
      }),
    );
    expect(inputs.goal).toBe("  --help; $(id)  ");
    expect(agentRunArgs(inputs)).toEqual([
      "--output=json",
      `--cwd=${join(workspace, "sub")}`,
      "--model=-m evil",
      "--max-turns=7",
      "--on-ask=fail",
      "--allow=exec:npm test*",
      "--allow=edit_file:src/**",
      "--deny=exec:rm *",
      "-",
    ]);
  });

  test("tier, timeout, max-tokens, schema and sandbox-required become agent run's own flags", () => {
    writeFileSync(join(workspace, "answer.schema.json"), '{"type":"object"}');
    const inputs = readInputs(
      env({
        INPUT_PROMPT: "go",
        INPUT_TIER: "fast",
        INPUT_TIMEOUT: "600",
        INPUT_MAX_TOKENS: "200000",
        INPUT_SCHEMA: "answer.schema.json",
        INPUT_SANDBOX: "read-only",
        INPUT_SANDBOX_REQUIRED: "true",
      }),
    );
    expect(agentRunArgs(inputs)).toEqual([
      "--output=json",
      `--cwd=${workspace}`,
      "--tier=fast",
      "--sandbox=read-only",
      "--sandbox-required",
      "--max-tokens=200000",
      "--timeout=600",
      `--schema=${join(workspace, "answer.schema.json")}`,
      "-",
    ]);
    // Inline JSON is passed as it is; sandbox-required "false" (the default) adds nothing.
    const inline = readInputs(
      env({ INPUT_PROMPT: "go", INPUT_SCHEMA: '{"type":"string"}', INPUT_SANDBOX_REQUIRED: "false" }),
    );
    expect(agentRunArgs(inline)).toEqual([
      "--output=json",
      `--cwd=${workspace}`,
      '--schema={"type":"string"}',
      "-",
    ]);
  });

  test("provider inputs become the provider's variables; only keys are secrets", () => {
    const inputs = readInputs(
      env({
        INPUT_PROMPT: "go",
        INPUT_OPENAI_API_KEY: "sk-test",
        INPUT_OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
        INPUT_GEMINI_API_KEY: "",
      }),
    );
    expect(inputs.providerEnv).toEqual({
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: "http://127.0.0.1:1/v1",
    });
    expect(inputs.secrets).toEqual(["sk-test"]);
  });

  test("prompt-file is read relative to the workspace, output-file resolved against it", () => {
    writeFileSync(join(workspace, "goal.md"), "from the file\n");
    const inputs = readInputs(env({ INPUT_PROMPT_FILE: "goal.md", INPUT_OUTPUT_FILE: "out/r.json" }));
    expect(inputs.goal).toBe("from the file\n");
    expect(inputs.outputFile).toBe(join(workspace, "out", "r.json"));
  });

  test("inputs that cannot work are errors naming the input", () => {
    const cases: [Record<string, string>, string][] = [
      [{}, "input prompt (or prompt-file) is required"],
      [{ INPUT_PROMPT: "a", INPUT_PROMPT_FILE: "goal.md" }, "inputs prompt and prompt-file were both given"],
      [
        { INPUT_PROMPT_FILE: "missing.md" },
        `input prompt-file: ${join(workspace, "missing.md")} is not a readable file`,
      ],
      [
        { INPUT_PROMPT: "a", INPUT_WORKING_DIRECTORY: "nope" },
        `input working-directory: ${join(workspace, "nope")}`,
      ],
      [
        { INPUT_PROMPT: "a", INPUT_SANDBOX_REQUIRED: "yes" },
        'input sandbox-required: expected true or false, got "yes"',
      ],
      [
        { INPUT_PROMPT: "a", INPUT_SCHEMA: "missing.json" },
        `input schema: ${join(workspace, "missing.json")} is not a readable file`,
      ],
    ];
    for (const [inputs, message] of cases) {
      expect(() => readInputs(env(inputs))).toThrow(InputError);
      expect(() => readInputs(env(inputs))).toThrow(message);
    }
  });
});
