import type { EventDataMap } from "../kernel/index.ts";

/**
 * The line every renderer shows for a skill's activation (Ink and plain progress alike): which skill, who
 * activated it, its path (a project skill is a repository's text: the user sees where it came from), and
 * what its `allowed-tools` granted or were refused.
 */
export function skillActivationText(data: EventDataMap["skill_activated"]): string {
  const how = data.fork ? "runs as a sub-agent" : "activated";
  const by = data.by === "user" ? "by you" : "by the model";
  const granted = data.granted.length > 0 ? `; pre-approved: ${data.granted.join(", ")}` : "";
  const ignored = data.ignored ? `; ${data.ignored}` : "";
  return `skill ${data.skill} ${how} ${by} (${data.scope} ${data.path})${granted}${ignored}`;
}
