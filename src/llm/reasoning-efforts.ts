/**
 * Which reasoning efforts each OpenAI model accepts, its default, and how a requested effort becomes one
 * the model takes. Kept apart from the catalog (prices, limits) so both can change independently.
 *
 * Sources (checked 2026-11-23):
 * - gpt-6-astra: low, medium, high, xhigh, max; `none` and `minimal` answer 400 "Unsupported value";
 *   default medium (UKGovernmentBEIS/inspect_ai#5254 live probes; BerriAI/litellm-docs#1173;
 *   developers.openai.com/api/docs/guides/latest-model).
 * - gpt-6.1-sol: low, medium (default), high, xhigh, max; none and minimal are gone
 *   (dev.to/aihubmix "Choosing a reasoning effort for GPT-6.1 Sol", quoting OpenAI's reasoning guide).
 * - gpt-6-luna, gpt-5.6-luna: none, low, medium, high, xhigh, max (docs.oxen.ai model pages, which
 *   quote OpenAI's: "Chat Completions supports function calling only with reasoning effort set to none").
 * - gpt-6.1-terra: none, low, medium (default), high, xhigh, max (apidog.com/blog/gpt-6-1-terra-api,
 *   citing OpenAI's model page).
 * - `minimal` is refused by every GPT-6 model (qiita.com/Synthorai GPT-6 Astra effort measurements).
 * - The deployment checklist (developers.openai.com/api/docs/guides/deployment-checklist): "When
 *   reasoning effort is not none, remove temperature, top_p, and top_logprobs".
 */
import { REASONING_EFFORTS, type ReasoningEffort } from "../kernel/stream.ts";

export interface EffortSupport {
  /** Accepted values, lowest first. */
  accepted: readonly ReasoningEffort[];
  /** What the model uses when the request names none. */
  default: ReasoningEffort;
}

const WITH_NONE: readonly ReasoningEffort[] = ["none", "low", "medium", "high", "xhigh", "max"];
const NO_NONE: readonly ReasoningEffort[] = ["low", "medium", "high", "xhigh", "max"];

/** Per-model effort support of OpenAI's current models (see the sources above). */
export const OPENAI_EFFORTS: Readonly<Record<string, EffortSupport>> = {
  "gpt-6-astra": { accepted: NO_NONE, default: "medium" },
  "gpt-6.1-sol": { accepted: NO_NONE, default: "medium" },
  "gpt-6.1-terra": { accepted: WITH_NONE, default: "medium" },
  "gpt-6-luna": { accepted: WITH_NONE, default: "medium" },
  "gpt-5.6-luna": { accepted: WITH_NONE, default: "medium" },
};

/** Effort support of an OpenAI model id (a dated snapshot `gpt-6-luna-2026-09-22` counts as its base). */
export function openaiEffortSupport(modelId: string): EffortSupport | undefined {
  const id = modelId.toLowerCase();
  return OPENAI_EFFORTS[id] ?? OPENAI_EFFORTS[id.replace(/-\d{4}-\d{2}-\d{2}$/, "")];
}

/**
 * The effort to send for `requested` on a model: the requested one when the model accepts it, else the
 * nearest accepted one above it (`none` on a model without `none` becomes its floor), else its highest.
 * Unknown models get the requested value unchanged (nothing is known to refuse).
 */
export function acceptedEffort(modelId: string, requested: ReasoningEffort): ReasoningEffort {
  const support = openaiEffortSupport(modelId);
  if (!support || support.accepted.includes(requested)) return requested;
  const rank = REASONING_EFFORTS.indexOf(requested);
  const above = support.accepted.find((e) => REASONING_EFFORTS.indexOf(e) >= rank);
  return above ?? support.accepted[support.accepted.length - 1] ?? requested;
}

/** The effort a request runs at: the accepted form of the requested one, or the model's default
 * (undefined when neither is known: the model decides). */
export function effectiveEffort(modelId: string, requested?: ReasoningEffort): ReasoningEffort | undefined {
  if (requested !== undefined) return acceptedEffort(modelId, requested);
  return openaiEffortSupport(modelId)?.default;
}
