/**
 * The Ink apps as the tests mount them (ink-testing-library): `agent run`'s App and the chat's ChatApp on a
 * given store, colors and cost off unless a test asks, and a wait for what the screen shows (Ink renders
 * asynchronously).
 */
import { render } from "ink-testing-library";
import { ChatApp } from "../../src/ui/ink/chat/chat-app.tsx";
import { ChatController } from "../../src/ui/ink/chat/chat-controller.ts";
import { InkApprover } from "../../src/ui/ink/prompts/ink-approver.ts";
import { App } from "../../src/ui/ink/run/app.tsx";
import type { HistoryItem } from "../../src/ui/ink/state/state.ts";
import type { UiStore } from "../../src/ui/ink/state/store.ts";
import type { InterruptKeyName } from "../../src/ui/renderer-types.ts";
import type { ChatCommand } from "../../src/ui/slash-commands.ts";

/** The props a test sets; the others are the defaults below. */
export interface MountOptions {
  /** Default: a new InkApprover on the store. */
  approver?: InkApprover;
  /** Default: false. */
  showCost?: boolean;
  /** Default: does nothing. */
  onInterrupt?: (key?: InterruptKeyName) => void;
}

/** `agent run`'s Ink app on `store`, colors off. */
export function renderRunApp(
  store: UiStore,
  options: MountOptions & { onHistoryRender?: (item: HistoryItem) => void } = {},
) {
  return render(
    <App
      store={store}
      approver={options.approver ?? new InkApprover(store)}
      colors={false}
      showCost={options.showCost ?? false}
      onInterrupt={options.onInterrupt ?? (() => {})}
      onHistoryRender={options.onHistoryRender}
    />,
  );
}

/** The chat's Ink app on `store`, colors off. */
export function renderChatApp(
  store: UiStore,
  options: MountOptions & { chat?: ChatController; commands?: readonly ChatCommand[] } = {},
) {
  return render(
    <ChatApp
      store={store}
      chat={options.chat ?? new ChatController()}
      approver={options.approver ?? new InkApprover(store)}
      colors={false}
      showCost={options.showCost ?? false}
      onInterrupt={options.onInterrupt ?? (() => {})}
      commands={options.commands}
    />,
  );
}

/** Polls until `check` holds (Ink renders asynchronously); fails naming `what` after a generous bound. */
export async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 4000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
