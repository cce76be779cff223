/** Ink color names this UI uses. */
export type Tone = "green" | "red" | "yellow" | "cyan" | "gray" | "magenta";

/** The color prop for a Text: the tone when colors are on, nothing under NO_COLOR. */
export function tone(colors: boolean, name: Tone): Tone | undefined {
  return colors ? name : undefined;
}

/** `text` cut to `width` columns with an ellipsis (one line; callers split lines first). */
export function fit(text: string, width: number): string {
  const max = Math.max(8, width);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
