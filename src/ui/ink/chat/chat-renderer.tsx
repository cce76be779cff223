/**
 * The chat's Ink view. Import it only through openChatUi (ui/chat.ts): loading Ink costs ~140 ms and its
 * input hooks need a TTY on stdin.
 */
import { render } from "ink";
import type { AgentEvent } from "../../../kernel/run-events/events.ts";
import type { ChatInput, ChatUi, ChatUiOptions, Choice } from "../../chat-types.ts";
import type { FinishedRun } from "../../result.ts";
import { loadMarkdown } from "../history/markdown-loader.ts";
import { InkApprover } from "../prompts/ink-approver.ts";
import { CLEAR_SCREEN_AND_SCROLLBACK } from "../resize-guard.ts";
import { UiStore } from "../state/store.ts";
import { ChatApp } from "./chat-app.tsx";
import { ChatController } from "./chat-controller.ts";

/** Options of {@link createInkChat}: the chat's, plus streams for tests. */
export interface InkChatOptions extends ChatUiOptions {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  flushMs?: number;
}

/** The chat view, with its store and controller (tests read them). */
export interface InkChat extends ChatUi {
  readonly store: UiStore;
  readonly chat: ChatController;
}

/**
 * Mounts the chat view; it stays up across turns until close(). The markdown renderer is loaded after
 * the first frame (opening box and input box), which needs none; `ready()` waits for it, and a continued
 * chat, which prints its earlier messages at once, loads it first.
 */
export async function createInkChat(options: InkChatOptions): Promise<InkChat> {
  const earlier = options.earlier ?? [];
  if (earlier.length > 0) await loadMarkdown();
  const store = new UiStore({ flushMs: options.flushMs, costOf: options.costOf });
  const approver = new InkApprover(store);
  const chat = new ChatController(options.history);
  const instance = render(
    <ChatApp
      store={store}
      chat={chat}
      approver={approver}
      colors={options.colors}
      showCost={options.costOf !== undefined}
      onInterrupt={options.onInterrupt}
      commands={options.commands ?? []}
    />,
    {
      stdin: options.stdin,
      stdout: options.stdout,
      exitOnCtrlC: false,
      patchConsole: true,
      // Only reached on a terminal; Ink's own detection would turn live redraws off under CI.
      interactive: true,
    },
  );
  let closed = false;
  if (options.welcome) store.dispatch({ type: "welcome", info: options.welcome });
  if (earlier.length > 0) store.dispatch({ type: "earlier", messages: earlier });
  store.flush();
  const markdown = instance.waitUntilRenderFlush().then(loadMarkdown);
  const stdout = options.stdout ?? process.stdout;
  return {
    store,
    chat,
    approver,
    onEvent(event: AgentEvent) {
      if (!closed) store.dispatch({ type: "event", event });
    },
    ready: () => markdown,
    async nextInput(): Promise<ChatInput> {
      if (closed) return { kind: "quit" };
      store.flush();
      return chat.next();
    },
    async choose(choice: Choice): Promise<number | undefined> {
      if (closed || choice.options.length === 0) return undefined;
      store.flush();
      return chat.choose(choice);
    },
    prefill(text: string) {
      chat.draft = text;
    },
    turnEnded(run: FinishedRun) {
      store.dispatch({ type: "turn_end", run, now: Date.now() });
      store.flush();
    },
    reset(model?: string) {
      // The screen and scrollback go (as the resize guard clears them) and the history starts empty.
      store.flush();
      stdout.write(CLEAR_SCREEN_AND_SCROLLBACK);
      store.clearHistory();
      store.dispatch({ type: "reset", ...(model !== undefined ? { model } : {}) });
      store.flush();
    },
    modelChosen(model: string) {
      store.dispatch({ type: "model", model });
      store.flush();
    },
    sent(text: string) {
      store.dispatch({ type: "sent", text });
      store.flush();
    },
    note(text: string, ok?: boolean) {
      store.dispatch({ type: "note", text, ...(ok !== undefined ? { ok } : {}) });
      store.flush();
    },
    async close() {
      if (closed) return;
      closed = true;
      chat.answer({ kind: "quit" });
      await instance.waitUntilRenderFlush();
      store.dispose();
      instance.unmount();
      await instance.waitUntilExit();
    },
  };
}
