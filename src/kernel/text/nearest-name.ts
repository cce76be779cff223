import { closest, distance } from "fastest-levenshtein";

/**
 * The known name nearest to a mistyped one (`capabilites` → `capabilities`), by edit distance, or
 * undefined when none is close: at most a third of the typed name's length (and at least 2) edits away,
 * so `model` suggests nothing for `zzz`. One suggestion, as git's "did you mean" gives.
 */
export function nearestName(typed: string, known: readonly string[]): string | undefined {
  if (known.length === 0 || typed === "") return undefined;
  const lower = typed.toLowerCase();
  const best = closest(
    lower,
    known.map((k) => k.toLowerCase()),
  );
  const limit = Math.max(2, Math.floor(typed.length / 3));
  if (distance(lower, best) > limit) return undefined;
  return known.find((k) => k.toLowerCase() === best);
}
