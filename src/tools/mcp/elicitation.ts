/**
 * How the MCP client answers a server's `elicitation/create` (form mode): the request becomes a question
 * (elicitation-form.ts), `ask` puts it to whoever can answer (the session's approver: the terminal form,
 * or a stand-in), and the answer goes back as the spec's `accept` (with content), `decline` or `cancel`
 * (MCP 2025-11-25 client/elicitation, "Response Actions"). A form that cannot be shown is declined; an
 * aborted signal (the server cancelled, the run was interrupted or ended) answers `cancel`, never a hang.
 */
import { randomUUID } from "node:crypto";
import type { ElicitationAnswer, ElicitationQuestion } from "../../kernel/run-events/elicitation.ts";
import type { McpClientHandlers } from "./client-requests.ts";
import { elicitationQuestion, elicitResult } from "./elicitation-form.ts";

/** Puts a question to the user; rejects when `signal` aborts. */
export type AskElicitation = (
  question: ElicitationQuestion,
  signal: AbortSignal,
) => Promise<ElicitationAnswer>;

export function elicitationHandler(ask: AskElicitation): NonNullable<McpClientHandlers["elicit"]> {
  return async (server, params, signal) => {
    const asked = elicitationQuestion(randomUUID(), server, params);
    if ("error" in asked) return { action: "decline" };
    try {
      const answer = await ask(asked.question, signal);
      return elicitResult(asked.question.fields, answer);
    } catch (error) {
      if (signal.aborted) return { action: "cancel" };
      throw error;
    }
  };
}
