import type { ApprovalDecision, ApprovalRequest, Approver } from "../../kernel/approvals.ts";
import type { UiStore } from "./store.ts";

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
