/** `--sandbox MODE`, `--sandbox-network` and `--sandbox-required`, shared by `agent run` and `agent helper` (see sandbox-setup.ts). */
import { Option } from "commander";
import {
  SANDBOX_MODES,
  type SandboxMode,
  type SandboxSettings,
} from "../../../tools/exec/sandbox-settings.ts";

/** The sandbox flags as commander parses them. */
export interface SandboxFlags {
  sandbox?: SandboxMode;
  sandboxNetwork?: boolean;
  sandboxRequired?: boolean;
}

/** The options, for a command's option list. */
export function sandboxOptions(): Option[] {
  return [
    new Option(
      "--sandbox <mode>",
      "run exec and verify: commands under bubblewrap (Linux): workspace-write (default where bwrap works), read-only or off",
    ).choices([...SANDBOX_MODES]),
    new Option("--sandbox-network", "let sandboxed commands reach the network"),
    new Option(
      "--sandbox-required",
      "refuse to run (exit 3) when the sandbox is unavailable, instead of running commands unsandboxed",
    ),
  ];
}

/** Config settings with the flags laid over them. */
export function sandboxSettings(flags: SandboxFlags, config: SandboxSettings | undefined): SandboxSettings {
  const settings: SandboxSettings = { ...config };
  if (flags.sandbox !== undefined) settings.mode = flags.sandbox;
  if (flags.sandboxNetwork === true) settings.network = true;
  if (flags.sandboxRequired === true) settings.required = true;
  return settings;
}
