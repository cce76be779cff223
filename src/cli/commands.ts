/**
 * The command registry. Each command lives in its own module, cheap to import: it declares its
 * options and lazily imports its implementation inside the action. Adding a command is one line here.
 */

import { agentsCommand } from "./agents/agents-command.ts";
import { chatCommand } from "./chat/chat-command.ts";
import { evalCommand } from "./eval/eval-command.ts";
import { helperCommand } from "./helper/helper-command.ts";
import { mcpCommand } from "./mcp/mcp-command.ts";
import { modelsCommand } from "./models/models-command.ts";
import { runCommand } from "./run/run-command.ts";
import { sessionsCommand } from "./sessions/sessions-command.ts";
import type { CommandModule } from "./shared/command-module.ts";
import { skillsCommand } from "./skills/skills-command.ts";

/** Every command, in help order. */
export const COMMANDS: readonly CommandModule[] = [
  runCommand,
  chatCommand,
  helperCommand,
  agentsCommand,
  modelsCommand,
  mcpCommand,
  skillsCommand,
  sessionsCommand,
  evalCommand,
];
