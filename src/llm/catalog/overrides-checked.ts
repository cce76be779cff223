/**
 * The last day the cited overrides (overrides.ts) were checked as a whole against the providers' pages,
 * shown by `agent models` beside the models.dev data's date. Its own module so the listing does not load
 * the overrides (a start without a newer refresh reads the premerged catalog instead).
 */
export const OVERRIDES_CHECKED = "2026-11-29";
