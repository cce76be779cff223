import type { EventDataMap } from "./events.ts";

/** Who decided an approval, for people: `--on-ask`, `default: no terminal to ask`, `rule exec:rm *`. */
const FLAG_BY: Record<"on_ask" | "default" | "no_terminal", string> = {
  on_ask: "--on-ask",
  default: "default: no terminal to ask",
  no_terminal: "no terminal to ask on",
};

/**
 * The `by …` of an approval decision, one wording for the live progress line (src/ui/format.ts) and the
 * transcript (`agent sessions show`), so both label a decision alike.
 */
export function decidedByText(
  data: Pick<EventDataMap["approval_decision"], "source" | "rule" | "why">,
): string {
  if (data.source === "flag") return FLAG_BY[data.why ?? "on_ask"];
  if (data.source === "rule") return data.rule ? `rule ${data.rule}` : "policy";
  return "user";
}
