/**
 * What a workspace's own `.agent/agents/` changes about the agents that run, announced rather than
 * silent: each project spec that overrides a user or built-in agent of the same name becomes a
 * `warning` event (code `project_override`) naming both files; renderers show it as a stderr line
 * (plain and JSON modes) or in the history (Ink), and the transcript keeps it.
 */
import type { SpecLoadResult } from "../../agents/spec/spec-loader.ts";
import { type AgentEvent, type EmitFn, makeEvent } from "../../kernel/index.ts";

/** A warning to emit once the session has started. */
export interface Notice {
  message: string;
  code: string;
}

/** One notice per project spec that hides a user or built-in spec of the same name. */
export function projectOverrideNotices(loaded: Pick<SpecLoadResult, "specs" | "shadowed">): Notice[] {
  const notices: Notice[] = [];
  for (const hidden of loaded.shadowed) {
    const spec = loaded.specs.get(hidden.name);
    if (spec?.source.scope !== "project" || hidden.scope === "project") continue;
    const verify = spec.verify?.length ? "; its verify: commands need approval like any exec call" : "";
    notices.push({
      code: "project_override",
      message: `project spec ${spec.source.file} overrides the ${hidden.scope} agent "${hidden.name}" (${hidden.file})${verify}`,
    });
  }
  return notices;
}

/** Wraps `emit` so the notices follow the root's session_start (the first event of a run's record). */
export function emitNoticesAfterStart(emit: EmitFn, notices: readonly Notice[]): EmitFn {
  let pending = notices.length > 0;
  return (event: AgentEvent) => {
    emit(event);
    if (!pending || event.kind !== "session_start" || event.depth !== 0) return;
    pending = false;
    const who = { agent: event.agent, name: event.name, depth: 0 };
    for (const notice of notices) emit(makeEvent(who, "warning", notice));
  };
}
