/**
 * Strict replay: each request of a replayed run is compared with the one the cassette recorded for
 * that turn, so a cassette recorded for another goal, model or agent setup fails loudly instead of
 * serving answers to questions nobody asked. Compared, in this order: the model (provider and id), the
 * tool set (names, order ignored), the conversation length (the sequence of turns), and, when both
 * requests end with a user message, its text (the goal, or a sub-agent's task). Tool results and the
 * system prompt are not compared: they carry workspace facts that differ from run to run.
 */
import type { Message } from "../../kernel/index.ts";
import type { RequestSummary } from "./cassette-format.ts";

const SHOWN = 80;

function quote(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(line.length > SHOWN ? `${line.slice(0, SHOWN)}…` : line);
}

function userText(message: Message | undefined): string | undefined {
  return message?.role === "user" ? message.content : undefined;
}

/** The first difference between the recorded request and this run's, as a phrase; undefined when they match. */
export function firstDifference(recorded: RequestSummary, actual: RequestSummary): string | undefined {
  const was = `${recorded.model.provider}:${recorded.model.id}`;
  const now = `${actual.model.provider}:${actual.model.id}`;
  if (was !== now) return `the model is ${now}, the cassette recorded ${was}`;
  const recordedTools = [...recorded.tools].sort().join(", ");
  const actualTools = [...actual.tools].sort().join(", ");
  if (recordedTools !== actualTools)
    return `the tools are [${actualTools}], the cassette recorded [${recordedTools}]`;
  if (recorded.messageCount !== actual.messageCount)
    return `the request holds ${actual.messageCount} messages, the cassette recorded ${recorded.messageCount}`;
  const recordedUser = userText(recorded.lastMessage);
  const actualUser = userText(actual.lastMessage);
  if (recordedUser !== undefined && actualUser !== undefined && recordedUser !== actualUser)
    return `the task is ${quote(actualUser)}, the cassette recorded ${quote(recordedUser)}`;
  return undefined;
}
