/**
 * The "did you mean" sentence for a mistyped name, built on {@link nearestName} (the one suggestion
 * helper): ` (did you mean "reviewer"?)`, or "" when no known name is close. Callers append it.
 */
import { nearestName } from "./nearest-name.ts";

/** ` (did you mean "NAME"?)` for the known name nearest to `typed`, or "" (also when `typed` is known). */
export function didYouMean(
  typed: string,
  known: readonly string[],
  show = (name: string) => `"${name}"`,
): string {
  if (known.includes(typed)) return "";
  const near = nearestName(typed, known);
  return near === undefined ? "" : ` (did you mean ${show(near)}?)`;
}
