/**
 * `agent helper` flags beyond what commander checks: the `--tools` list and the model name to run
 * (`--model`, else the tier, with `--tier auto` decided by the classifier).
 */
import { decideAuto, type TierChoice } from "../../agents/loop/tier-classifier.ts";
import { AppError } from "../../kernel/index.ts";
import { isPrimitiveName, PRIMITIVE_NAMES, type PrimitiveName } from "../../tools/names.ts";

/**
 * `--tools read_file,grep` as primitive names (duplicates dropped, order kept); undefined when the flag
 * is absent. An empty list or a name that is not a primitive is a usage error listing the valid ones.
 */
export function parseToolList(value: string | undefined): PrimitiveName[] | undefined {
  if (value === undefined) return undefined;
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const valid = PRIMITIVE_NAMES.join(", ");
  if (names.length === 0) throw new AppError("usage", `--tools needs at least one primitive: ${valid}`);
  const unknown = names.filter((name) => !isPrimitiveName(name));
  if (unknown.length > 0) {
    const list = unknown.map((name) => `"${name}"`).join(", ");
    throw new AppError(
      "usage",
      `--tools: unknown ${unknown.length === 1 ? "tool" : "tools"} ${list}; valid primitives: ${valid}`,
    );
  }
  return [...new Set(names)] as PrimitiveName[];
}

/**
 * The model name a helper run starts with: `--model` when given, else the tier; `--tier auto` is
 * resolved here to a concrete tier (so a stall can escalate from it) and the choice is returned. The
 * same decision as `agent run --tier auto` (decideAuto), with stdin's length counted too.
 */
export async function chooseModelName(input: {
  tier: string;
  model?: string;
  prompt: string;
  stdinLength: number;
  toolCount: number;
}): Promise<{ name: string; auto?: TierChoice }> {
  const name = input.model ?? input.tier;
  if (name.trim().toLowerCase() !== "auto") return { name };
  return decideAuto(input.model ?? input.tier, input.prompt, input.toolCount, input.stdinLength);
}
