/**
 * The command table: what each command loads, and when. A process that runs one command imports that
 * command's declaration (its options) to parse the arguments, and its implementation only when the
 * action runs; help and unknown commands import every declaration and no implementation (program.ts).
 * These are the CLI's only lazy imports of its own modules; the deeper ones load what a run may never
 * need (a provider's SDK, Ink, OpenTelemetry, the skill tool, Ajv, MCP). Adding a command is one line.
 */
import type { Command } from "commander";
import type { CommandModule } from "./shared/command-module.ts";
import type { RunIo } from "./shared/io/command-io.ts";

/** A command by name: `load` gives its declaration, bound to its implementation's loader. */
export interface CommandEntry {
  name: string;
  load(): Promise<{ register(program: Command, io: RunIo): void }>;
}

/** One table row: the declaring module, and the implementation its actions call. */
function command<Implementation>(
  name: string,
  declaration: () => Promise<CommandModule<Implementation>>,
  implementation: () => Promise<Implementation>,
): CommandEntry {
  return {
    name,
    async load() {
      const declared = await declaration();
      return { register: (program, io) => declared.register(program, implementation, io) };
    },
  };
}

/** Every command, in help order. */
export const COMMANDS: readonly CommandEntry[] = [
  command(
    "run",
    async () => (await import("./run/run-command.ts")).runCommand,
    () => import("./run/run-session.ts"),
  ),
  command(
    "chat",
    async () => (await import("./chat/chat-command.ts")).chatCommand,
    () => import("./chat/chat-session.ts"),
  ),
  command(
    "helper",
    async () => (await import("./helper/helper-command.ts")).helperCommand,
    () => import("./helper/helper-run.ts"),
  ),
  command(
    "agents",
    async () => (await import("./agents/agents-command.ts")).agentsCommand,
    () => import("./agents/agents-run.ts"),
  ),
  command(
    "models",
    async () => (await import("./models/models-command.ts")).modelsCommand,
    () => import("./models/models-run.ts"),
  ),
  command(
    "mcp",
    async () => (await import("./mcp/mcp-command.ts")).mcpCommand,
    () => import("./mcp/mcp-actions.ts"),
  ),
  command(
    "skills",
    async () => (await import("./skills/skills-command.ts")).skillsCommand,
    () => import("./skills/skills-run.ts"),
  ),
  command(
    "sessions",
    async () => (await import("./sessions/sessions-command.ts")).sessionsCommand,
    () => import("./sessions/sessions-run.ts"),
  ),
  command(
    "worktrees",
    async () => (await import("./worktrees/worktrees-command.ts")).worktreesCommand,
    () => import("./worktrees/worktrees-run.ts"),
  ),
  command(
    "rewind",
    async () => (await import("./rewind/rewind-command.ts")).rewindCommand,
    () => import("./rewind/rewind-run.ts"),
  ),
  command(
    "eval",
    async () => (await import("./eval/eval-command.ts")).evalCommand,
    () => import("./eval/eval-main.ts"),
  ),
];
