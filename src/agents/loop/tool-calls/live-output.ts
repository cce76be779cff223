import {
  type AgentIdentity,
  type EmitFn,
  makeEvent,
  OutputTail,
  type ToolCall,
  type ToolProgress,
} from "../../../kernel/index.ts";

/** At most this many tool_output events a second per running command. */
const OUTPUT_EVENTS_PER_SECOND = 10;

/**
 * A running command's output as tool_output events: its last lines, the first chunk at once and then at
 * most OUTPUT_EVENTS_PER_SECOND (what arrives in between shows with the next chunk, or in tool_end).
 */
export function liveOutput(
  call: ToolCall,
  ctx: { who: AgentIdentity; emit: EmitFn; now: () => number },
): (text: string) => void {
  const tail = new OutputTail();
  let last: number | undefined;
  return (text) => {
    tail.push(text);
    const now = ctx.now();
    if (last !== undefined && now - last < 1000 / OUTPUT_EVENTS_PER_SECOND) return;
    last = now;
    ctx.emit(
      makeEvent(ctx.who, "tool_output", {
        id: call.id,
        tool: call.name,
        lines: tail.lines(),
        lineCount: tail.lineCount,
      }),
    );
  };
}

/** A running tool's progress reports as tool_progress events, at most OUTPUT_EVENTS_PER_SECOND (the
 * latest report wins; a server may send many). */
export function liveProgress(
  call: ToolCall,
  ctx: { who: AgentIdentity; emit: EmitFn; now: () => number },
): (progress: ToolProgress) => void {
  let last: number | undefined;
  return (progress) => {
    const now = ctx.now();
    if (last !== undefined && now - last < 1000 / OUTPUT_EVENTS_PER_SECOND) return;
    last = now;
    ctx.emit(makeEvent(ctx.who, "tool_progress", { id: call.id, tool: call.name, ...progress }));
  };
}
