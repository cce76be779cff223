/**
 * Reasoning effort for one request: the requested effort (or the model's catalog default), mapped to the
 * nearest value the model accepts, so an adapter never sends a value the model refuses.
 */
import type { ModelRequest, ReasoningEffort } from "../kernel/index.ts";
import { reasoningSupport } from "./catalog.ts";

/** Our normalized efforts, weakest first. */
export const EFFORT_SCALE: readonly ReasoningEffort[] = [
  "none",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
];

/** The accepted effort nearest to `wanted` on the scale; a tie goes to the stronger one. */
export function nearestEffort(
  wanted: ReasoningEffort,
  accepted: readonly ReasoningEffort[],
): ReasoningEffort | undefined {
  const at = EFFORT_SCALE.indexOf(wanted);
  let best: ReasoningEffort | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const effort of accepted) {
    const distance = Math.abs(EFFORT_SCALE.indexOf(effort) - at);
    const stronger = best !== undefined && EFFORT_SCALE.indexOf(effort) > EFFORT_SCALE.indexOf(best);
    if (distance < bestDistance || (distance === bestDistance && stronger)) {
      best = effort;
      bestDistance = distance;
    }
  }
  return best;
}

/** The effort to send for `request`, or undefined when the model takes no reasoning setting. */
export function effortFor(request: ModelRequest): ReasoningEffort | undefined {
  const support = reasoningSupport(request.model.id);
  if (!support) return undefined;
  const wanted = request.reasoningEffort ?? support.defaultEffort;
  return wanted === undefined ? undefined : nearestEffort(wanted, support.efforts);
}
