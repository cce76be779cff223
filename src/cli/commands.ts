/**
 * The command registry. Each command lives in its own module, which declares its options and lazily
 * imports its implementation inside the action. The table names every command and loads its module on
 * demand, so a process that runs one command imports and registers only that one (program.ts); help
 * and unknown commands load them all. Adding a command is one line here.
 */

import type { CommandModule } from "./shared/command-module.ts";

/** A command by name, its declaring module loaded on demand. */
export interface CommandEntry {
  name: string;
  load(): Promise<CommandModule>;
}

/** Every command, in help order. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: "run", load: async () => (await import("./run/run-command.ts")).runCommand },
  { name: "chat", load: async () => (await import("./chat/chat-command.ts")).chatCommand },
  { name: "helper", load: async () => (await import("./helper/helper-command.ts")).helperCommand },
  { name: "agents", load: async () => (await import("./agents/agents-command.ts")).agentsCommand },
  { name: "models", load: async () => (await import("./models/models-command.ts")).modelsCommand },
  { name: "mcp", load: async () => (await import("./mcp/mcp-command.ts")).mcpCommand },
  { name: "skills", load: async () => (await import("./skills/skills-command.ts")).skillsCommand },
  { name: "sessions", load: async () => (await import("./sessions/sessions-command.ts")).sessionsCommand },
  { name: "eval", load: async () => (await import("./eval/eval-command.ts")).evalCommand },
];
