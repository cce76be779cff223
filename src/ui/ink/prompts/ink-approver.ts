import type { ApprovalDecision, ApprovalRequest, Approver } from "../../../kernel/run-events/approvals.ts";
import type {
  ElicitationAnswer,
  ElicitationQuestion,
  FieldDraft,
} from "../../../kernel/run-events/elicitation.ts";
import { terminalSafe } from "../../../kernel/text/terminal-text.ts";
import type { UiStore } from "../state/store.ts";
import type { FormAnswer } from "./elicitation-form.tsx";

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The approval was aborted", "AbortError");
}

/**
 * The interactive approver: puts each request in the UI state (the prompt shows the first one, others
 * wait in order) and resolves when the prompt answers it by id. An aborted signal removes the request
 * and rejects with the signal's reason.
 */
export class InkApprover implements Approver {
  private readonly waiting = new Map<string, (decision: ApprovalDecision) => void>();
  private readonly forms = new Map<string, (answer: FormAnswer) => void>();

  constructor(private readonly store: UiStore) {}

  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.settle(request.id);
        reject(abortError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(request.id, (decision) => {
        signal.removeEventListener("abort", onAbort);
        resolve(decision);
      });
      this.store.dispatch({ type: "approval_enqueued", request });
      this.store.flush();
    });
  }

  /**
   * Puts an MCP server's form in the UI state (shown when no approval waits); resolves when the form
   * answers it by id. An aborted signal removes it and rejects (the server then reads `cancel`).
   */
  elicit(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.settleForm(question.id);
        reject(abortError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.forms.set(question.id, (answer) => {
        signal.removeEventListener("abort", onAbort);
        resolve(answerTo(question, answer));
      });
      this.store.dispatch({ type: "elicitation_enqueued", question });
      this.store.flush();
    });
  }

  /** Delivers the form's answer to question `id`; false when nothing waits for it. */
  answerForm(id: string, answer: FormAnswer): boolean {
    const resolve = this.forms.get(id);
    if (!resolve) return false;
    this.settleForm(id);
    resolve(answer);
    return true;
  }

  private settleForm(id: string): void {
    this.forms.delete(id);
    this.store.dispatch({ type: "elicitation_settled", id });
    this.store.flush();
  }

  /** Delivers the user's answer to request `id`; false when nothing waits for it (already answered or aborted). */
  answer(id: string, decision: ApprovalDecision): boolean {
    const resolve = this.waiting.get(id);
    if (!resolve) return false;
    this.settle(id);
    resolve(decision);
    return true;
  }

  /** Number of requests waiting for an answer. */
  get pendingCount(): number {
    return this.waiting.size;
  }

  private settle(id: string): void {
    this.waiting.delete(id);
    this.store.dispatch({ type: "approval_settled", id });
    this.store.flush();
  }
}

/**
 * The form's answer for the question as the server sent it. The form shows a terminal-safe copy (the
 * store cleans every string it holds), so drafts come back by field position, and a choice by the
 * position of the option shown: the server gets its own names and values back, never the cleaned ones.
 */
function answerTo(question: ElicitationQuestion, answer: FormAnswer): ElicitationAnswer {
  if (answer.action !== "accept") return answer;
  const drafts: Record<string, FieldDraft> = {};
  question.fields.forEach((field, index) => {
    const draft = answer.drafts[index];
    if (draft === undefined) return;
    if (field.kind === "choice" || field.kind === "choices") {
      const shown = field.options.map((o) => terminalSafe(o.value));
      const original = (value: string) => field.options[shown.indexOf(value)]?.value ?? value;
      drafts[field.name] = Array.isArray(draft) ? draft.map(original) : original(String(draft));
    } else drafts[field.name] = draft;
  });
  return { action: "accept", drafts };
}
