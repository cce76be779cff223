import type { RunLimits } from "../agents/types.ts";
import { AppError } from "../kernel/index.ts";
import type { SessionFlags } from "./session-setup.ts";

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

/** `--max-turns N` and `--timeout S` as run limits; anything else is a usage error (exit 2). */
export function parseLimitFlags(flags: Pick<SessionFlags, "maxTurns" | "timeout">): RunLimits {
  const limits: RunLimits = {};
  if (flags.maxTurns !== undefined) limits.maxTurns = positive(flags.maxTurns, "--max-turns", true);
  if (flags.timeout !== undefined)
    limits.timeoutMs = Math.round(positive(flags.timeout, "--timeout", false) * 1000);
  return limits;
}
