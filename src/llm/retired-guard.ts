/**
 * A model past its shutdown day is not sent: the request would only meet the provider's 404. Resolving
 * such a model is a configuration error (exit 3) naming the replacement, unless the user sets
 * AGENT_ALLOW_RETIRED_MODELS=1 (a provider may still serve a model to some accounts after the date it
 * announced). Only the three native providers' models are checked; an openai-compatible server's ids
 * are its own.
 */
import { AppError, type ModelRef } from "../kernel/index.ts";
import { retirementOf } from "./catalog.ts";

/** Setting this variable to 1 sends requests to models past their shutdown day. */
export const ALLOW_RETIRED_VAR = "AGENT_ALLOW_RETIRED_MODELS";

const NATIVE = new Set(["anthropic", "openai", "gemini"]);

/** The error for a model past its shutdown on `now`, or undefined when it may be sent. */
export function retiredRefusal(ref: ModelRef, now: Date = new Date()): AppError | undefined {
  if (!NATIVE.has(ref.providerName) || ref.providerName !== ref.provider) return undefined;
  const retirement = retirementOf(ref.id, ref.provider, now);
  if (!retirement?.past) return undefined;
  const use = retirement.replacement ? `; use ${retirement.replacement} instead` : "";
  return new AppError(
    "config",
    `${ref.id} was shut down by ${ref.provider} on ${retirement.retires}, so the request was not sent${use} (set ${ALLOW_RETIRED_VAR}=1 to send it anyway)`,
    { field: "model" },
  );
}
