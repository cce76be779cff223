/**
 * Plan mode's answer (docs/plan-mode.md): what the agent means to do, as a structured record the run result
 * (`plan` in JSON), the transcript (the `plan` event) and the terminal's approval prompt share.
 */

/** A plan: the steps in order, the workspace files it expects to change, the commands it expects to run. */
export interface Plan {
  summary: string;
  steps: string[];
  files: string[];
  commands: string[];
}

/** The tool name of the approval request that puts a plan to the user (the terminal's plan review). */
export const PLAN_REVIEW_TOOL = "plan";

/** The plan as the answer a person reads (text output, the terminal, the executing run's context). */
export function planText(plan: Plan): string {
  const list = (items: readonly string[], numbered: boolean): string =>
    items.length === 0
      ? "(none)"
      : items.map((item, i) => (numbered ? `${i + 1}. ${item}` : `- ${item}`)).join("\n");
  return [
    `Plan: ${plan.summary}`,
    "",
    "Steps:",
    list(plan.steps, true),
    "",
    "Files to change:",
    list(plan.files, false),
    "",
    "Commands to run:",
    list(plan.commands, false),
  ].join("\n");
}

/** A plan read back from JSON (the model's answer, a transcript line); undefined when it is not one. */
export function planFromJson(value: unknown): Plan | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  const strings = (v: unknown): string[] | undefined =>
    Array.isArray(v) && v.every((item) => typeof item === "string") ? v : undefined;
  const steps = strings(record.steps);
  const files = strings(record.files);
  const commands = strings(record.commands);
  if (typeof record.summary !== "string" || !steps || !files || !commands) return undefined;
  return { summary: record.summary, steps, files, commands };
}
