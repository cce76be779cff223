/**
 * Project approval rules: `./.agent/config.yaml` in the workspace may add `rules.ask` and `rules.deny`
 * (never allow rules, never models or providers: a cloned repository must not loosen the user's policy
 * or redirect their keys to another server).
 */
import { join } from "node:path";
import { AppError, readConfigFile } from "../kernel/index.ts";
import type { RuleLists } from "../policy/rules.ts";

export const PROJECT_CONFIG = join(".agent", "config.yaml");

/** Reads the project's rule lists; none when the file is absent. */
export async function loadProjectRules(workspaceRoot: string): Promise<RuleLists | undefined> {
  const file = join(workspaceRoot, PROJECT_CONFIG);
  // A FIFO, a device, a huge file or a symlink out of the workspace is refused (exit 3), never read.
  const text = await readConfigFile(file, { kind: "config", within: workspaceRoot });
  if (text === undefined) return undefined;
  const { parseConfigText } = await import("./config-parse.ts");
  const config = parseConfigText(text, file);
  const foreign = [
    Object.keys(config.models).length > 0 ? "models" : "",
    Object.keys(config.providers).length > 0 ? "providers" : "",
    config.defaults.agent || config.defaults.onAsk ? "defaults" : "",
  ].filter(Boolean);
  if (foreign.length > 0) {
    throw new AppError(
      "config",
      `${file}: a project config may only hold rules.ask and rules.deny, not ${foreign.join(", ")}; ` +
        "put those in your user config",
      { file, field: foreign[0] },
    );
  }
  return { ...config.rules, file };
}
