/**
 * The part of marked-terminal 7 (no bundled types; @types/marked-terminal targets marked < 12) this code
 * uses: `markedTerminal(options, highlightOptions)` returns a marked extension
 * (node_modules/marked-terminal/README.md "Usage": `marked.use(markedTerminal([options][, highlightOptions]))`).
 */
declare module "marked-terminal" {
  import type { MarkedExtension } from "marked";

  type Style = (text: string) => string;
  export interface TerminalRendererOptions {
    code?: Style;
    blockquote?: Style;
    html?: Style;
    heading?: Style;
    firstHeading?: Style;
    hr?: Style;
    listitem?: Style;
    table?: Style;
    paragraph?: Style;
    strong?: Style;
    em?: Style;
    codespan?: Style;
    del?: Style;
    link?: Style;
    href?: Style;
    text?: Style;
    unescape?: boolean;
    emoji?: boolean;
    width?: number;
    showSectionPrefix?: boolean;
    reflowText?: boolean;
    tab?: number | string;
  }
  export function markedTerminal(
    options?: TerminalRendererOptions,
    highlightOptions?: Record<string, unknown>,
  ): MarkedExtension;
}
