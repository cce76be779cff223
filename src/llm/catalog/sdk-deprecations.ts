/**
 * The Anthropic SDK's own list of deprecated models and their end-of-life days, read from the installed
 * SDK at run time so a newer SDK's list applies without a change here: @anthropic-ai/sdk ships it as
 * `internal/data/deprecated-models.js` (`DEPRECATED_MODELS = {'claude-sonnet-4-5': 'November 30th,
 * 2026', ...}`; src/internal/data/deprecated-models.ts in anthropics/anthropic-sdk-typescript), the
 * list its `messages.create` warns from. The file is read as text (never executed); a missing or
 * unreadable file gives an empty list, and the cited overrides (overrides.ts) still apply.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** `November 30th, 2026` -> `2026-11-30`, or undefined for anything else. */
export function sdkDay(text: string): string | undefined {
  const match = /^([A-Za-z]+) (\d{1,2})(?:st|nd|rd|th)?, (\d{4})$/.exec(text.trim());
  if (!match) return undefined;
  const month = MONTHS.indexOf((match[1] ?? "").toLowerCase());
  if (month < 0) return undefined;
  return `${match[3]}-${String(month + 1).padStart(2, "0")}-${String(Number(match[2])).padStart(2, "0")}`;
}

/** Model id -> end-of-life day from the text of a deprecated-models file. */
export function parseDeprecatedModels(source: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of source.matchAll(/['"]([\w.-]+)['"]\s*:\s*['"]([^'"]+)['"]/g)) {
    const day = sdkDay(match[2] ?? "");
    if (match[1] && day) out.set(match[1], day);
  }
  return out;
}

let cached: ReadonlyMap<string, string> | undefined;

/** The installed Anthropic SDK's deprecated models (id -> YYYY-MM-DD), read once per process. */
export function anthropicSdkDeprecations(): ReadonlyMap<string, string> {
  if (cached) return cached;
  try {
    const root = dirname(require.resolve("@anthropic-ai/sdk"));
    cached = parseDeprecatedModels(readFileSync(join(root, "internal/data/deprecated-models.js"), "utf8"));
  } catch {
    cached = new Map();
  }
  return cached;
}
