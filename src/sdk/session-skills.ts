/**
 * A session's Agent Skills: discovered once when the session opens (warnings as notices, each once), only
 * when a skill folder exists (the discovery modules load lazily, so startup without skills is unchanged).
 * The root conversation's activations are kept per session id: a chat's `/clear` starts over.
 */
import { existingSources, skillSearchPath } from "../agents/spec/skills/search-path.ts";
import { newActivationState, type SkillSession, type SkillSet } from "../agents/spec/skills/types.ts";

export interface SessionSkills {
  set: SkillSet;
  /** The skill state of one conversation (a session id). */
  forSession(sessionId: string): SkillSession;
}

/** Discovers the skills of a workspace; undefined when no skill folder exists. */
export async function loadSessionSkills(
  workspaceRoot: string,
  env: Record<string, string | undefined>,
  projectTrusted: boolean,
): Promise<SessionSkills | undefined> {
  const sources = await existingSources(await skillSearchPath({ workspaceRoot, env }));
  if (sources.length === 0) return undefined;
  const { collectSkills, readSkillSources } = await import("../agents/spec/skills/discover.ts");
  const set = collectSkills(await readSkillSources(sources), projectTrusted);
  const roots = new Map<string, SkillSession>();
  return {
    set,
    forSession(sessionId) {
      let found = roots.get(sessionId);
      if (!found) {
        found = { set, root: newActivationState() };
        roots.set(sessionId, found);
      }
      return found;
    },
  };
}
