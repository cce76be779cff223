import { Box, Text } from "ink";
import type { ChatWelcomeInfo } from "../../chat-types.ts";
import { tone } from "../theme.ts";

/** The hint line every chat opens with. */
export const CHAT_HINT = "/help · Esc interrupts · Ctrl-C twice quits";

/** Props of {@link ChatWelcome}. */
export interface ChatWelcomeProps extends ChatWelcomeInfo {
  colors: boolean;
}

function shortPath(path: string, home: string | undefined): string {
  if (home && home !== "/" && (path === home || path.startsWith(`${home}/`)))
    return `~${path.slice(home.length)}`;
  return path;
}

/** The chat's opening lines: the model, the workspace, and the keys (as Claude Code's opening box does). */
export function ChatWelcome({ model, workspace, tier, resumed, colors, home }: ChatWelcomeProps) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={tone(colors, "gray")} paddingX={1}>
      <Text>
        <Text bold>agent</Text> chat
        {resumed !== undefined ? <Text dimColor>{` · continuing (${resumed} earlier messages)`}</Text> : null}
      </Text>
      <Text>
        <Text dimColor>model </Text>
        {model}
        {tier !== undefined ? <Text dimColor>{` (tier ${tier} · /model to change)`}</Text> : null}
      </Text>
      <Text>
        <Text dimColor>workspace </Text>
        {shortPath(workspace, home)}
      </Text>
      <Text dimColor>{CHAT_HINT}</Text>
    </Box>
  );
}
