/**
 * The sandbox a run's exec and `verify:` commands get (src/tools/exec/sandbox.ts), from config `sandbox:` and
 * the `--sandbox MODE` / `--sandbox-network` flags (flags win). When it is wanted but unavailable (no bwrap,
 * namespaces refused, not Linux) the run goes on unsandboxed with one warning, or, with `required: true`,
 * refuses with a config error (exit 3). An explicit `--sandbox off` is the user's choice and never refused.
 * Loaded only by the commands that run exec (the flags themselves live in sandbox-flags.ts).
 */
import { AppError } from "../kernel/index.ts";
import type { SandboxChoice, SandboxSettings } from "../tools/exec/sandbox.ts";
import type { Workspace } from "../tools/workspace.ts";

/**
 * The workspace with the sandbox `choice` (from chooseSandbox), and the warning to show once when the
 * sandbox was wanted but is unavailable. Throws AppError("config") when the settings require it.
 */
export function sandboxWorkspace(
  workspace: Workspace,
  settings: SandboxSettings,
  choice: SandboxChoice,
): { workspace: Workspace; warning?: string } {
  if (choice.sandbox) return { workspace: workspace.withSandbox(choice.sandbox) };
  if (choice.unavailable === undefined) return { workspace };
  if (settings.required === true) {
    throw new AppError(
      "config",
      `sandbox.required is true but the sandbox is unavailable: ${choice.unavailable} (${choice.fix ?? "install bubblewrap"}, or run with --sandbox off)`,
    );
  }
  return {
    workspace,
    warning: `sandbox unavailable: ${choice.unavailable}; exec and verify: commands run unsandboxed (${choice.fix ?? "install bubblewrap"}, or set sandbox.mode: off)`,
  };
}
