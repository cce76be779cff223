/**
 * The Anthropic SDK's own list of deprecated models and their end-of-life days. @anthropic-ai/sdk ships
 * it as `internal/data/deprecated-models.js` (`DEPRECATED_MODELS = {'claude-sonnet-4-5': 'November 30th,
 * 2026', ...}`; src/internal/data/deprecated-models.ts in anthropics/anthropic-sdk-typescript), the list
 * its `messages.create` warns from; the package does not export that path. scripts/catalog-merged.ts
 * reads the installed SDK's file as text (never executed) into sdk-deprecations.json, which ships inside
 * the program: a compiled binary has no node_modules to read at run time, and finding the file on every
 * run cost about 1.7 ms of each start (bench/startup.ts). test/llm/catalog/retirement.test.ts fails when
 * the installed SDK's list and the shipped one differ, so an SDK upgrade regenerates it.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import shipped from "./sdk-deprecations.json" with { type: "json" };

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

/** The Anthropic SDK's deprecated models (id -> YYYY-MM-DD) as shipped (sdk-deprecations.json). */
export function anthropicSdkDeprecations(): ReadonlyMap<string, string> {
  cached ??= new Map(Object.entries(shipped.models));
  return cached;
}

/** The list in the installed SDK's own file (scripts and tests; empty when it cannot be read). */
export function installedSdkDeprecations(): Map<string, string> {
  try {
    const root = dirname(require.resolve("@anthropic-ai/sdk"));
    return parseDeprecatedModels(readFileSync(join(root, "internal/data/deprecated-models.js"), "utf8"));
  } catch {
    return new Map();
  }
}
