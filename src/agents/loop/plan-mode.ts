/**
 * Plan mode (docs/plan-mode.md): the agent investigates with read-only tools and answers with a plan.
 * As Gemini CLI's `--approval-mode=plan` and Claude Code's plan mode do, nothing that changes the workspace
 * is offered: reads and searches (read-only MCP tools included, as their `readOnlyHint` says), and
 * sub-agents, which run in plan mode too. The answer is checked against {@link PLAN_SCHEMA} through the
 * `--schema` mechanism (output-schema.ts: native structured output where the provider has it, one re-ask).
 */
import { type Plan, planFromJson, type ResponseSchema } from "../../kernel/index.ts";
import type { Tool } from "../../tools/types.ts";

/** The plan's JSON schema (every property required and no others, as OpenAI's strict structured output
 * requires: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas). */
export const PLAN_SCHEMA: ResponseSchema = {
  name: "plan",
  schema: {
    type: "object",
    properties: {
      summary: { type: "string", description: "what the plan achieves, in one or two sentences" },
      steps: { type: "array", items: { type: "string" }, description: "the steps, in order" },
      files: {
        type: "array",
        items: { type: "string" },
        description: "workspace-relative paths of the files the steps create, change or delete",
      },
      commands: { type: "array", items: { type: "string" }, description: "the shell commands the steps run" },
    },
    required: ["summary", "steps", "files", "commands"],
    additionalProperties: false,
  },
};

/** What the top agent is told in plan mode, after its own system prompt. */
export const PLAN_INSTRUCTIONS = [
  "You are in plan mode: you may read and search the workspace, but nothing may be changed yet.",
  "Investigate what you need, then answer with a plan as a JSON object with `summary`, `steps` (in order),",
  "`files` (the workspace files you expect to create, change or delete) and `commands` (the shell commands",
  "you expect to run). The user reviews the plan; once approved, you carry it out in this conversation.",
].join(" ");

/** The tools plan mode keeps: read-only ones and sub-agents (which run in plan mode themselves). */
export function plannable(tool: Tool): boolean {
  return tool.readOnly || tool.kind === "agent";
}

/** Drops every tool plan mode does not offer from a run's registry. */
export function keepPlannable(registry: Map<string, Tool>): void {
  for (const [name, tool] of registry) if (!plannable(tool)) registry.delete(name);
}

/** The plan a plan-mode answer holds (the shaper already checked it against the schema). */
export function planOfAnswer(answer: string): Plan | undefined {
  try {
    return planFromJson(JSON.parse(answer));
  } catch {
    return undefined;
  }
}
