/**
 * The rules that keep data from switching budgets off: which prices are plausible, when a refreshed
 * models.dev price may replace one of our cited prices, and which models are not chat models.
 *
 * A budget (`--max-budget-usd`) is only as good as the price it multiplies. models.dev records some
 * introductory prices as list prices (its gemini-3.8-flash.toml: 0.75/3.75 with a note of 1.50/7.50 from
 * 2027) and a refreshed file can carry 0 for a model it has not priced; either would make a budget trip
 * late or never. So a cited price gives way only to a plausible price that is not lower.
 */
import type { ModelPrice } from "../../kernel/index.ts";
import type { CompactModel } from "./models-dev.ts";
import type { Override } from "./overrides.ts";

/** Input and output both priced above zero (a chat model that bills nothing is a data error). */
export function plausiblePrice(price: ModelPrice | undefined): price is ModelPrice {
  return (
    price !== undefined &&
    Number.isFinite(price.input) &&
    Number.isFinite(price.output) &&
    price.input > 0 &&
    price.output > 0
  );
}

/**
 * Whether a refreshed price may stand over the override's cited one: only when it is plausible, not
 * lower on input or output, and the override schedules no price change (a schedule is tied to the list
 * price it gives way to).
 */
export function refreshedPriceStands(refreshed: ModelPrice, cited: ModelPrice, override: Override): boolean {
  if (override.scheduled && override.scheduled.length > 0) return false;
  if (!plausiblePrice(refreshed)) return false;
  return refreshed.input >= cited.input && refreshed.output >= cited.output;
}

/** Embeddings, speech and image models: by what they output, or by the kind their id names. */
export function isNonChat(model: Pick<CompactModel, "id" | "modalities">): boolean {
  const output = model.modalities?.output;
  if (output && (!output.includes("text") || output.some((m) => m === "audio" || m === "image"))) return true;
  return /(^|-)(embedding|tts|transcribe|realtime|image)(-|$)/.test(model.id);
}
