/**
 * The README is the way into docs/: every page there is linked from it, and every relative link in the
 * README and in docs/ reaches a file that exists, and a heading of that file when it names one
 * (`page.md#section`, slugged as GitHub does). Links are read with marked's lexer, so a link-like text
 * inside a code block is not taken for a link.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import GithubSlugger from "github-slugger";
import { marked, type Token } from "marked";

const ROOT = resolve(import.meta.dir, "../..");
const DOCS = join(ROOT, "docs");
const PAGES = readdirSync(DOCS)
  .filter((name) => name.endsWith(".md"))
  .map((name) => join(DOCS, name));
const FILES = [join(ROOT, "README.md"), ...PAGES];

function tokensOf(file: string): Token[] {
  const tokens = marked.lexer(readFileSync(file, "utf8"));
  const all: Token[] = [];
  marked.walkTokens(tokens, (token) => {
    all.push(token);
  });
  return all;
}

/** The link targets of a Markdown file, as written. */
function linksOf(file: string): string[] {
  return tokensOf(file).flatMap((token) => (token.type === "link" ? [token.href as string] : []));
}

/** The anchors GitHub gives the headings of a Markdown file. */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  return new Set(
    tokensOf(file).flatMap((token) =>
      token.type === "heading" ? [slugger.slug((token.text as string).replace(/`/g, ""))] : [],
    ),
  );
}

const isRelative = (href: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(href);

describe("README and docs links", () => {
  test("docs/ has pages, and the README links every one of them", () => {
    expect(PAGES.length).toBeGreaterThan(0);
    const linked = new Set(
      linksOf(join(ROOT, "README.md"))
        .filter(isRelative)
        .map((href) => resolve(ROOT, href.split("#")[0] ?? "")),
    );
    expect(PAGES.filter((page) => !linked.has(page)).map((page) => relative(ROOT, page))).toEqual([]);
  });

  test("every relative link in the README and docs/ reaches an existing file and heading", () => {
    const broken: string[] = [];
    for (const file of FILES) {
      for (const href of linksOf(file).filter(isRelative)) {
        const [path = "", anchor] = href.split("#");
        const target = path === "" ? file : resolve(dirname(file), path);
        const where = `${relative(ROOT, file)} -> ${href}`;
        if (!existsSync(target)) broken.push(`${where}: no such file`);
        else if (anchor !== undefined && target.endsWith(".md") && !anchorsOf(target).has(anchor)) {
          broken.push(`${where}: no such heading`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  test("the link reader sees links and headings (a broken link would be found)", () => {
    const readme = linksOf(join(ROOT, "README.md"));
    expect(readme).toContain("docs/ci-and-json.md");
    expect(anchorsOf(join(DOCS, "ci-and-json.md")).has("exit-codes")).toBe(true);
    expect(anchorsOf(join(DOCS, "agent-specs.md")).has("agent-agents")).toBe(true);
  });
});
