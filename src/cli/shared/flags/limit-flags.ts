import type { RunLimits } from "../../../agents/types.ts";
import { AppError } from "../../../kernel/index.ts";
import type { SessionFlags } from "./session-options.ts";

function positive(value: string, flag: string, integer: boolean): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new AppError(
      "usage",
      `${flag} expects a positive ${integer ? "whole number" : "number"}, got "${value}"`,
    );
  }
  return n;
}

/**
 * `--max-turns N`, `--timeout S`, `--max-budget-usd USD` and `--max-tokens N` as run limits; anything
 * else is a usage error (exit 2). Budgets the flags leave unset come from config `defaults`.
 */
export function parseLimitFlags(
  flags: Pick<SessionFlags, "maxTurns" | "timeout" | "maxBudgetUsd" | "maxTokens">,
  defaults: { maxBudgetUsd?: number; maxTokens?: number } = {},
): RunLimits {
  const limits: RunLimits = {};
  if (flags.maxTurns !== undefined) limits.maxTurns = positive(flags.maxTurns, "--max-turns", true);
  if (flags.timeout !== undefined)
    limits.timeoutMs = Math.round(positive(flags.timeout, "--timeout", false) * 1000);
  const cost =
    flags.maxBudgetUsd !== undefined ? positive(flags.maxBudgetUsd, "--max-budget-usd", false) : undefined;
  const tokens = flags.maxTokens !== undefined ? positive(flags.maxTokens, "--max-tokens", true) : undefined;
  if ((cost ?? defaults.maxBudgetUsd) !== undefined) limits.costBudgetUsd = cost ?? defaults.maxBudgetUsd;
  if ((tokens ?? defaults.maxTokens) !== undefined) limits.tokenBudget = tokens ?? defaults.maxTokens;
  return limits;
}
