import type { ApprovalDecision, ApprovalRequest, Approver } from "../../../kernel/run-events/approvals.ts";
import type {
  ElicitationAnswer,
  ElicitationQuestion,
  FieldDraft,
} from "../../../kernel/run-events/elicitation.ts";
import { terminalSafe } from "../../../kernel/text/terminal-text.ts";
import type { UiAction } from "../state/state.ts";
import type { UiStore } from "../state/store.ts";
import type { FormAnswer } from "./elicitation-form.tsx";

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The approval was aborted", "AbortError");
}

/**
 * Questions of one kind waiting for their answers by id. Each is settled once: answered, or removed when
 * its signal aborts (then its promise rejects with the signal's reason). `settled` takes it out of the UI.
 */
class Waiting<T> {
  private readonly resolvers = new Map<string, (answer: T) => void>();

  constructor(private readonly settled: (id: string) => void) {}

  /** Shows the question (`show`) and resolves with its answer, mapped by `toResult`. */
  wait<R>(id: string, signal: AbortSignal, show: () => void, toResult: (answer: T) => R): Promise<R> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.settle(id);
        reject(abortError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.resolvers.set(id, (answer) => {
        signal.removeEventListener("abort", onAbort);
        resolve(toResult(answer));
      });
      show();
    });
  }

  /** Delivers the answer to question `id`; false when nothing waits for it (already answered or aborted). */
  answer(id: string, answer: T): boolean {
    const resolve = this.resolvers.get(id);
    if (!resolve) return false;
    this.settle(id);
    resolve(answer);
    return true;
  }

  get size(): number {
    return this.resolvers.size;
  }

  private settle(id: string): void {
    this.resolvers.delete(id);
    this.settled(id);
  }
}

/**
 * The interactive approver: puts each request in the UI state (the prompt shows the first one, others
 * wait in order) and resolves when the prompt answers it by id. An aborted signal removes the request
 * and rejects with the signal's reason.
 */
export class InkApprover implements Approver {
  private readonly waiting = new Waiting<ApprovalDecision>((id) =>
    this.update({ type: "approval_settled", id }),
  );
  private readonly forms = new Waiting<FormAnswer>((id) => this.update({ type: "elicitation_settled", id }));

  constructor(private readonly store: UiStore) {}

  decide(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const show = () => this.update({ type: "approval_enqueued", request });
    return this.waiting.wait(request.id, signal, show, (decision) => decision);
  }

  /**
   * Puts an MCP server's form in the UI state (shown when no approval waits); resolves when the form
   * answers it by id. An aborted signal removes it and rejects (the server then reads `cancel`).
   */
  elicit(question: ElicitationQuestion, signal: AbortSignal): Promise<ElicitationAnswer> {
    const show = () => this.update({ type: "elicitation_enqueued", question });
    return this.forms.wait(question.id, signal, show, (answer) => answerTo(question, answer));
  }

  /** Delivers the form's answer to question `id`; false when nothing waits for it. */
  answerForm(id: string, answer: FormAnswer): boolean {
    return this.forms.answer(id, answer);
  }

  /** Delivers the user's answer to request `id`; false when nothing waits for it (already answered or aborted). */
  answer(id: string, decision: ApprovalDecision): boolean {
    return this.waiting.answer(id, decision);
  }

  /** Number of requests waiting for an answer. */
  get pendingCount(): number {
    return this.waiting.size;
  }

  private update(action: UiAction): void {
    this.store.dispatch(action);
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
