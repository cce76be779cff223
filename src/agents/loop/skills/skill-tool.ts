import { makeEvent } from "../../../kernel/index.ts";
import type { Tool, ToolRunOutput, ValidationResult } from "../../../tools/types.ts";
import { catalogListing } from "../../spec/skills/catalog.ts";
import { substituteSkill } from "../../spec/skills/substitute.ts";
import type { Skill } from "../../spec/skills/types.ts";
import { type AgentSpec, DEFAULT_CONSTRAINTS, primitiveCapabilities } from "../../spec/spec.ts";
import { activate, activatedText, modelSkills, type SkillHost } from "./skill-activation.ts";

export { activate, restoreActivations, restoreRecordedActivations } from "./skill-activation.ts";

import { childIdentity, type DelegationContext, delegationResult } from "../sub-agents.ts";

/**
 * The `skill {name, arguments?}` tool (DESIGN "One tool pipeline"): progressive disclosure's second tier
 * (agentskills.io "Adding skills support", Step 4, "Dedicated tool activation", with the names as an enum
 * so the model cannot invent one). An inline skill returns its body with the arguments substituted, once
 * per conversation; a `context: fork` skill runs as a sub-agent whose system prompt is the body. The tool
 * holds no permission of its own (allowed by default; `deny: [skill:NAME]` refuses one): what the skill
 * then does goes through the gate like every other call.
 */

interface SkillArgs {
  name: string;
  arguments: string;
}

/** The tool, or undefined when the agent may activate no skill (no empty tool is offered). */
export function skillTool(host: SkillHost, delegation: DelegationContext): Tool<SkillArgs> | undefined {
  const skills = modelSkills(host);
  if (skills.length === 0) return undefined;
  const names = skills.map((s) => s.name);
  // All names as an enum when the catalog lists them all; past its cap, any name is checked on use.
  const everyNameListed = catalogListing(skills).leftOut.length === 0;
  return {
    name: "skill",
    kind: "primitive",
    description:
      "Load a skill from <available_skills> by name: returns its full instructions (or, for a skill that runs on its own, its result). Call it when the task matches the skill's description.",
    parameters: {
      type: "object",
      properties: {
        name: {
          type: "string",
          ...(everyNameListed ? { enum: names } : {}),
          description: "The skill's name, as listed in <available_skills> (or named after it).",
        },
        arguments: {
          type: "string",
          description: "Optional arguments for the skill (what the user asked for).",
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
    readOnly: false,
    concurrent: false,
    policyName: "skill",
    allowByDefault: true,
    validate: (args) => validateSkillArgs(args, names),
    policyTarget: async (args) => ({ targets: [args.name], sensitive: false }),
    label: (args) => args.name,
    preview: async (args) => `activate skill ${args.name}`,
    execute: async (args, ctx) => {
      const skill = skills.find((s) => s.name === args.name) as Skill;
      if (!activate(host, skill, "model"))
        return {
          modelText: `The skill ${skill.name} is already loaded in this conversation: follow its instructions above.`,
          display: `skill ${skill.name} (already loaded)`,
          isError: false,
        };
      if (skill.fork) return runFork(host, skill, args.arguments, ctx.callId ?? skill.name, delegation);
      return {
        modelText: activatedText(skill, args.arguments),
        display: `skill ${skill.name}: ${skill.file}`,
        isError: false,
      };
    },
  };
}

/** Past this many skills, a bad name's error does not list them all (each would be sent to the model). */
const MAX_NAMES_IN_ERROR = 50;

function validateSkillArgs(args: unknown, names: string[]): ValidationResult<SkillArgs> {
  const record = (args ?? {}) as Record<string, unknown>;
  const name = record.name;
  if (typeof name !== "string" || !names.includes(name)) {
    const known =
      names.length <= MAX_NAMES_IN_ERROR
        ? `one of ${names.join(", ")}`
        : "a skill's name from <available_skills> or the note after it";
    return { ok: false, error: `invalid arguments for skill: \`name\` must be ${known}` };
  }
  const given = record.arguments ?? "";
  if (typeof given !== "string")
    return { ok: false, error: "invalid arguments for skill: `arguments` must be a string when given" };
  return { ok: true, value: { name, arguments: given } };
}

/**
 * The sub-agent a `context: fork` skill runs as: the body is its system prompt; its tools are the
 * parent's primitives (never more), or, for an agent that only delegates (the root), code-editor's.
 */
export function forkSpec(host: SkillHost, skill: Skill, args: string): AgentSpec {
  const parent = host.options.spec;
  const own = primitiveCapabilities(parent);
  const editor = host.options.specs.get("code-editor");
  const capabilities = own.length > 0 ? own : editor ? primitiveCapabilities(editor) : [];
  return {
    name: skill.name,
    description: skill.description,
    system_prompt: substituteSkill(skill.body, args, skill.dir),
    model: editor && own.length === 0 ? editor.model : parent.model,
    capabilities,
    constraints: { ...DEFAULT_CONSTRAINTS, max_depth: 0, can_spawn: false },
    tags: ["skill"],
    version: "1",
    skills: false,
    ...(parent.instructions !== undefined ? { instructions: parent.instructions } : {}),
  };
}

async function runFork(
  host: SkillHost,
  skill: Skill,
  args: string,
  callId: string,
  ctx: DelegationContext,
): Promise<ToolRunOutput> {
  const spec = forkSpec(host, skill, args);
  const goal = args.trim() !== "" ? args : `Carry out the ${skill.name} skill's instructions.`;
  const child = childIdentity(ctx.who, skill.name, ctx.counters);
  ctx.emit(makeEvent(ctx.who, "act_start", { id: callId, child: child.agent, childName: skill.name, goal }));
  const outcome = await ctx.runChild(spec, goal, [], child, child.depth);
  const { status, finishReason, answer } = outcome.result;
  ctx.emit(
    makeEvent(ctx.who, "act_end", {
      id: callId,
      child: child.agent,
      childName: skill.name,
      status,
      finishReason,
      answer,
    }),
  );
  const { content, isError } = delegationResult(skill.name, outcome.result);
  return {
    modelText: content,
    display: `skill ${skill.name} (forked): ${status} (${finishReason})`,
    isError,
    ...(outcome.stop !== undefined ? { stop: outcome.stop } : {}),
  };
}
