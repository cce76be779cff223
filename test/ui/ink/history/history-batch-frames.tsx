/**
 * The finished items of history-batch.test.tsx drawn two ways, as the test compares them: one HistoryLine
 * per item (a Box and Texts each) and one HistoryBatch (a Text per run of items). Run as a script, it
 * prints both frames as JSON, so the test can draw them in a process whose colors are forced on
 * (chalk decides its color level once, when it is loaded).
 */
import { Box, Text } from "ink";
import { cleanup, render } from "ink-testing-library";
import { ChatWelcome } from "../../../../src/ui/ink/chat/chat-welcome.tsx";
import { diffLineTone, HistoryBatch, HistoryLine } from "../../../../src/ui/ink/history/history-line.tsx";
import { itemMark, markTone } from "../../../../src/ui/ink/history/history-text.ts";
import { renderMarkdown } from "../../../../src/ui/ink/history/markdown.ts";
import { loadMarkdown } from "../../../../src/ui/ink/history/markdown-loader.ts";
import type { HistoryItem } from "../../../../src/ui/ink/state/state.ts";
import { tone } from "../../../../src/ui/ink/theme.ts";

const long = Array.from({ length: 30 }, (_, i) => `word${i}`).join(" ");

/** Items of every kind, at several depths, with text that wraps, wide characters, details and a diff. */
export const ITEMS: HistoryItem[] = [
  { key: 0, kind: "goal", depth: 0, agentName: "root", text: `refactor ${long}` },
  {
    key: 1,
    kind: "message",
    depth: 0,
    agentName: "root",
    text: `## Plan\n\n- run \`bun test\` with *care* ${long}\n- two\n\n\`\`\`\nconst a = 1;\nconst b = 2;\n\`\`\``,
  },
  { key: 2, kind: "delegate", depth: 0, agentName: "root", text: `delegating to code-reader: ${long}` },
  {
    key: 3,
    kind: "message",
    depth: 1,
    agentName: "code-reader",
    text: `**Found** it, *emphasis that\ncontinues on the next line*:\n\n\`\`\`ts\nexport const x = 1;\nexport const y = 2;\n\`\`\`\n\n> quoted ${long}`,
  },
  {
    key: 4,
    kind: "tool",
    depth: 1,
    agentName: "code-reader",
    text: `exec npm test -- ${long} (2s)`,
    ok: false,
    detail: ["FAIL src/a.test.ts", `expected ${long}`],
  },
  {
    key: 5,
    kind: "tool",
    depth: 2,
    agentName: "code-editor",
    text: "edit_file src/x.ts — edited src/x.ts (2ms)",
    ok: true,
    diff: { lines: ["-one", "+ONE", `+${long}`], more: 1 },
  },
  {
    key: 6,
    kind: "approval",
    depth: 2,
    agentName: "code-editor",
    text: "denied exec rm -rf / by rule",
    ok: false,
  },
  { key: 7, kind: "warning", depth: 1, agentName: "code-reader", text: `宽字符的文本 ${long} 🎉🎉` },
  { key: 8, kind: "return", depth: 0, agentName: "root", text: "code-reader: success (stop)", ok: true },
  { key: 9, kind: "info", depth: 0, agentName: "root", text: "" },
  { key: 10, kind: "error", depth: 3, agentName: "x", text: `x ${"y".repeat(150)}` },
  { key: 11, kind: "status", depth: 0, agentName: "root", text: "success (stop) · 2s", ok: true },
  {
    key: 12,
    kind: "welcome",
    depth: 0,
    agentName: "",
    text: "",
    welcome: { model: "anthropic:claude-x", workspace: "/w", tier: "good" },
  },
  { key: 13, kind: "note", depth: 0, agentName: "", text: "after the welcome" },
];

/**
 * The reference: an item as the view drew it before batches (a Box and nested Ink Texts per item). Its
 * marks and their colors come from history-text.ts: what is compared is how the text is drawn (styles,
 * wrapping, indentation), not which mark an item has.
 */
function NestedTexts({ item, colors, columns }: { item: HistoryItem; colors: boolean; columns: number }) {
  const indent = item.depth * 2 + (item.kind === "tool" || item.kind === "approval" ? 2 : 0);
  const mark = itemMark(item);
  if (item.kind === "welcome" && item.welcome) return <ChatWelcome {...item.welcome} colors={colors} />;
  if (item.kind === "message")
    return (
      <Box marginLeft={indent}>
        <Text>
          <Text bold>{item.agentName}</Text>
          {`\n${renderMarkdown(item.text, colors, columns - indent)}`}
        </Text>
      </Box>
    );
  const who = item.kind === "delegate" || item.kind === "goal" ? `${item.agentName}: ` : "";
  return (
    <Box marginLeft={indent}>
      <Text>
        <Text color={tone(colors, markTone(item))}>{mark} </Text>
        {who}
        {item.text}
        {item.detail ? <Text dimColor>{item.detail.map((line) => `\n  ${line}`).join("")}</Text> : null}
        {item.diff?.lines.map((line) => (
          <Text key={line} color={tone(colors, diffLineTone(line))}>
            {`\n  ${line}`}
          </Text>
        ))}
        {item.diff && item.diff.more > 0 ? (
          <Text dimColor>{`\n  … ${item.diff.more} more ${item.diff.more === 1 ? "line" : "lines"}`}</Text>
        ) : null}
      </Text>
    </Box>
  );
}

/** The frames of ITEMS in a `width`-column box, with or without colors. */
export function frames(
  colors: boolean,
  width: number,
): { reference: string; perItem: string; batch: string } {
  const draw = (node: React.ReactElement): string => {
    const { lastFrame } = render(<Box width={width}>{node}</Box>);
    const frame = lastFrame() ?? "";
    cleanup();
    return frame;
  };
  return {
    reference: draw(
      <Box flexDirection="column">
        {ITEMS.map((item) => (
          <NestedTexts key={item.key} item={item} colors={colors} columns={width} />
        ))}
      </Box>,
    ),
    perItem: draw(
      <Box flexDirection="column">
        {ITEMS.map((item) => (
          <HistoryLine key={item.key} item={item} colors={colors} columns={width} />
        ))}
      </Box>,
    ),
    batch: draw(<HistoryBatch items={ITEMS} colors={colors} columns={width} />),
  };
}

if (import.meta.main) {
  await loadMarkdown(); // the history renders markdown once its renderer is loaded, as the CLI loads it
  console.log(JSON.stringify([true, false].flatMap((c) => [40, 100].map((w) => frames(c, w)))));
}
