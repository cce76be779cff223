import { freezeHistory } from "../../../kernel/conversation/freeze.ts";
import {
  type AgentIdentity,
  type AssistantMessage,
  assistantText,
  assistantToolCalls,
  type EmitFn,
  type Message,
  makeEvent,
  type ToolCall,
} from "../../../kernel/index.ts";
import { ABORTED_RESULT } from "../tool-calls/invoke.ts";
import { detectTextToolCalls } from "../tool-calls/tool-call-repair.ts";

/** Small operations on an agent's message history that keep it valid for every provider. */

/** An error result for a call the loop decided not to run. */
export function notRunResult(call: ToolCall, content: string): Message {
  return { role: "tool", toolCallId: call.id, toolName: call.name, content, isError: true };
}

/** Resumed histories may end with tool calls that never got results: answer them as aborted. */
export function closeOpenToolCalls(messages: Message[], append: (m: Message) => void): void {
  const last = messages[messages.length - 1];
  if (last?.role !== "assistant") return;
  for (const call of assistantToolCalls(last)) append(notRunResult(call, ABORTED_RESULT));
}

/**
 * Makes a recorded history valid for a provider: every tool call is followed by its result (a missing
 * one becomes an "aborted" result, placed right after the results that exist) and results without
 * a call are dropped. The last assistant message's open calls are left for closeOpenToolCalls.
 * Every message of the result is frozen (freeze.ts): it is the history a run starts from.
 */
export function repairHistory(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  let open: ToolCall[] = [];
  const closeOpen = (): void => {
    for (const call of open) out.push(notRunResult(call, ABORTED_RESULT));
    open = [];
  };
  for (const message of messages) {
    if (message.role === "tool") {
      const index = open.findIndex((c) => c.id === message.toolCallId);
      if (index < 0) continue;
      open.splice(index, 1);
      out.push(message);
      continue;
    }
    closeOpen();
    out.push(message);
    if (message.role === "assistant") open = assistantToolCalls(message);
  }
  return freezeHistory(out);
}

/** Turns a text-only answer that is really a JSON tool call into a proper tool-call message. */
export function withTextToolCalls(
  message: AssistantMessage,
  toolNames: ReadonlySet<string>,
  who: AgentIdentity,
  emit: EmitFn,
  turn: number,
): AssistantMessage {
  if (assistantToolCalls(message).length > 0) return message;
  const found = detectTextToolCalls(assistantText(message), toolNames);
  if (!found) return message;
  emit(
    makeEvent(who, "warning", {
      message: `tool call written as text detected: ${found.calls.map((c) => c.name).join(", ")}`,
      code: "text_tool_call",
    }),
  );
  const parts: AssistantMessage["parts"] = message.parts.filter((p) => p.type === "reasoning");
  if (found.rest) parts.push({ type: "text", text: found.rest });
  for (const [i, c] of found.calls.entries()) {
    parts.push({ type: "tool_call", id: `text_call_${turn}_${i + 1}`, name: c.name, arguments: c.arguments });
  }
  return { role: "assistant", parts };
}
