/**
 * Reasoning effort for one request, for every provider: the catalog lists what each model accepts
 * (`efforts`) and its defaults; this module maps a requested effort onto those, so an adapter never
 * sends a value the model refuses (e.g. `none` to gpt-6-astra, `minimal` to any GPT-6 or Claude model).
 *
 * The one rounding rule: the weakest accepted effort at or above the requested one, else the strongest
 * accepted. A request is never silently given less reasoning than it asked for, except above the
 * model's ceiling (`max` on a model topping out at `high` gets `high`).
 */
import {
  type ModelRequest,
  REASONING_EFFORTS,
  type ReasoningEffort,
} from "../../kernel/conversation/stream.ts";
import { catalogEntry, reasoningSupport } from "../catalog.ts";

/** `wanted` mapped onto `accepted` by the rule above; undefined only when `accepted` is empty. */
export function roundEffort(
  wanted: ReasoningEffort,
  accepted: readonly ReasoningEffort[],
): ReasoningEffort | undefined {
  const rank = (effort: ReasoningEffort) => REASONING_EFFORTS.indexOf(effort);
  const sorted = [...accepted].sort((a, b) => rank(a) - rank(b));
  return sorted.find((effort) => rank(effort) >= rank(wanted)) ?? sorted[sorted.length - 1];
}

/**
 * The effort to send for a user's `requested` value: mapped onto the accepted list of a catalog model;
 * nothing for a catalog model that does not reason; unchanged for a model outside the catalog (the
 * user set it, so it is sent as given, and a 400 about it names the setting).
 */
export function acceptedEffort(modelId: string, requested: ReasoningEffort): ReasoningEffort | undefined {
  const support = reasoningSupport(modelId);
  if (support) return roundEffort(requested, support.efforts);
  const entry = catalogEntry(modelId);
  if (entry && !entry.reasoning) return undefined;
  return requested;
}

/**
 * The effort to send for `request` on a model the catalog lists efforts for: the requested one (or the
 * catalog's `defaultEffort`) mapped by the rule above; undefined when the model has no listed efforts or
 * nothing is asked (the model's own default applies).
 */
export function effortFor(request: ModelRequest): ReasoningEffort | undefined {
  const support = reasoningSupport(request.model.id);
  if (!support) return undefined;
  const wanted = request.reasoningEffort ?? support.defaultEffort;
  return wanted === undefined ? undefined : roundEffort(wanted, support.efforts);
}

/** The effort a request runs at: the accepted form of the requested one, else what the model runs at
 * when none is sent (undefined when nothing is known: the model decides). */
export function effectiveEffort(modelId: string, requested?: ReasoningEffort): ReasoningEffort | undefined {
  if (requested !== undefined) return acceptedEffort(modelId, requested);
  const support = reasoningSupport(modelId);
  const fallback = support?.defaultEffort ?? support?.modelDefault;
  return fallback !== undefined ? acceptedEffort(modelId, fallback) : undefined;
}
