/**
 * The substitutions in a skill's body when it is activated, as Claude Code makes them (its skills page,
 * code.claude.com/docs/en/skills; the list as references restate it: claude-with-skills.vercel.app
 * /reference/substitution-variables, khaderz.com claude-code-series "argument substitution"): `$ARGUMENTS` is the whole argument
 * string; `$ARGUMENTS[N]` and `$N` the N-th argument (0-based, shell-style quoting respected, empty when
 * absent); `${CLAUDE_SKILL_DIR}` (and our own `${SKILL_DIR}`) the skill's folder. A body that does not
 * mention `$ARGUMENTS` gets `ARGUMENTS: <value>` appended when arguments were given. One pass: text that
 * an argument brings in is never substituted again.
 */
import { parse as shellParse } from "shell-quote";

/** Splits an argument string as a shell would (quotes group words); operators are kept as text. */
export function splitArguments(text: string): string[] {
  try {
    return shellParse(text, (key) => `$${key}`).map((t) =>
      typeof t === "string" ? t : "op" in t ? t.op : String(t),
    );
  } catch {
    return text.split(/\s+/).filter((w) => w !== "");
  }
}

const TOKEN = /\$\{(?:CLAUDE_SKILL_DIR|SKILL_DIR)\}|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)\b/g;

/** The body with the substitutions made. `dir` is undefined for a legacy command file. */
export function substituteSkill(body: string, args: string, dir: string | undefined): string {
  const words = splitArguments(args);
  let mentionsArguments = false;
  const out = body.replace(TOKEN, (match, indexed: string | undefined, positional: string | undefined) => {
    if (match.startsWith("${")) return dir ?? match;
    mentionsArguments = true;
    if (indexed !== undefined) return words[Number(indexed)] ?? "";
    if (positional !== undefined) return words[Number(positional)] ?? "";
    return args;
  });
  if (!mentionsArguments && args.trim() !== "") return `${out}\n\nARGUMENTS: ${args}`;
  return out;
}
