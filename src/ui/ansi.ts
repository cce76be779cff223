/** The few ANSI styles the plain renderer uses, written by hand (no color library on the headless path). */
export interface Palette {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

function style(open: number, close: number): (text: string) => string {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

const identity = (text: string): string => text;

/** A palette that styles text when `enabled`, and returns it untouched otherwise (NO_COLOR, not a TTY). */
export function palette(enabled: boolean): Palette {
  if (!enabled) {
    return {
      red: identity,
      green: identity,
      yellow: identity,
      cyan: identity,
      dim: identity,
      bold: identity,
    };
  }
  return {
    red: style(31, 39),
    green: style(32, 39),
    yellow: style(33, 39),
    cyan: style(36, 39),
    dim: style(2, 22),
    bold: style(1, 22),
  };
}

/** Colors only for a TTY stream and only when NO_COLOR is unset (https://no-color.org). */
export function colorsEnabled(streamIsTTY: boolean, noColor: boolean): boolean {
  return streamIsTTY && !noColor;
}
