/**
 * The chat's view, as the CLI sees it (no Ink here): events in, the user's next input out. The Ink
 * implementation (ink/chat/chat-renderer.tsx) is loaded only on a terminal, like the run's Ink renderer.
 */
import type { ChatUi, ChatUiOptions } from "./chat-types.ts";

export type {
  ChatCommand,
  ChatInput,
  ChatUi,
  ChatUiOptions,
  ChatWelcomeInfo,
  Choice,
  EarlierMessage,
} from "./chat-types.ts";

/** Mounts the chat's Ink view. Call only with a TTY on stdin and stdout. */
export async function openChatUi(options: ChatUiOptions): Promise<ChatUi> {
  // Ink (and React) load only here, for a terminal.
  const { createInkChat } = await import("./ink/chat/chat-renderer.tsx");
  return createInkChat(options);
}
