import { Box, Text } from "ink";
import { tone } from "../theme.ts";

/** Props of {@link DiffPreview}. */
export interface DiffPreviewProps {
  diff: string;
  colors: boolean;
  /** Lines shown before "… N more lines" (default 30). */
  maxLines?: number;
}

/** A unified diff with + lines green, - lines red and @@ hunk headers cyan; long diffs are cut. */
export function DiffPreview({ diff, colors, maxLines = 30 }: DiffPreviewProps) {
  const lines = diff.replace(/\n$/, "").split("\n");
  const shown = lines.slice(0, maxLines);
  return (
    <Box flexDirection="column" marginLeft={2}>
      {shown.map((line, index) => {
        const isHeader = line.startsWith("+++") || line.startsWith("---");
        const color = isHeader
          ? undefined
          : line.startsWith("+")
            ? tone(colors, "green")
            : line.startsWith("-")
              ? tone(colors, "red")
              : line.startsWith("@@")
                ? tone(colors, "cyan")
                : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines of a fixed diff never reorder
          <Text key={index} color={color} bold={isHeader}>
            {line === "" ? " " : line}
          </Text>
        );
      })}
      {lines.length > shown.length && <Text dimColor>… {lines.length - shown.length} more lines</Text>}
    </Box>
  );
}
