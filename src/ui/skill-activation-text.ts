import type { EventDataMap } from "../kernel/index.ts";

/**
 * The line every renderer shows for a skill's activation (Ink and plain progress alike): which skill, who
 * activated it, its path (a project skill is a repository's text: the user sees where it came from), and
 * what its `allowed-tools` granted or were refused; a continued session's restored activation says so.
 */
export function skillActivationText(data: EventDataMap["skill_activated"]): string {
  // A restored activation is the continued session's, recorded when it happened: nothing runs again now.
  const who = data.by === "user" ? "by you" : "by the model";
  const how = data.restored
    ? `restored from the session (activated ${who} earlier)`
    : `${data.fork ? "runs as a sub-agent" : "activated"} ${who}`;
  const granted = data.granted.length > 0 ? `; pre-approved: ${data.granted.join(", ")}` : "";
  const ignored = data.ignored ? `; ${data.ignored}` : "";
  return `skill ${data.skill} ${how} (${data.scope} ${data.path})${granted}${ignored}`;
}
