/**
 * `agent helper --tier auto`: a rule-based guess of how hard a task is, from its text alone.
 * Pure and cheap (no model call): length, structure (code, many lines, lists of steps), what the task
 * asks for (refactor, design, prove ... raise the tier; classify, extract, translate, yes/no lower it)
 * and how many tools it may use. Every rule that fired is named in `reasons`, so the choice can be
 * reported in one line and argued with.
 */

/** The tiers auto chooses between. */
export type AutoTier = "fast" | "good" | "best";

export interface TierChoice {
  tier: AutoTier;
  /** Short phrases naming each rule that fired, strongest first (e.g. "long prompt", "asks to refactor"). */
  reasons: string[];
}

/** A word rule: its pattern, the words that name it in a reason, and its weight. */
interface AskRule {
  pattern: RegExp;
  reason: string;
  weight: number;
}

/** Asks that need a stronger model; a task scoring 4 or more goes to best, 2 or more to good. */
const HARD_ASKS: readonly AskRule[] = [
  { pattern: /\barchitect(ure|ural|ing)?\b/i, reason: "asks about architecture", weight: 3 },
  { pattern: /\b(prove|proves|proving|proof|formally verify)\b/i, reason: "asks for a proof", weight: 3 },
  { pattern: /\b(threat model|security audit|audit)\b/i, reason: "asks for an audit", weight: 3 },
  { pattern: /\brefactor(s|ing|ed)?\b/i, reason: "asks to refactor", weight: 2 },
  { pattern: /\b(design|designs|designing|redesign)\b/i, reason: "asks to design", weight: 2 },
  { pattern: /\bmigrat(e|es|ion|ing)\b/i, reason: "asks to migrate", weight: 2 },
  { pattern: /\bdebug(s|ging)?\b|\broot cause\b/i, reason: "asks to debug", weight: 2 },
  { pattern: /\bplan(s|ning|ned)?\b/i, reason: "asks to plan", weight: 2 },
  { pattern: /\breview(s|ing)?\b/i, reason: "asks to review", weight: 2 },
  { pattern: /\btrade-?offs?\b/i, reason: "asks to weigh trade-offs", weight: 2 },
  {
    pattern: /\b(implement|implements|implementing|optimi[sz]e|optimi[sz]ing)\b/i,
    reason: "asks to implement or optimize",
    weight: 2,
  },
  {
    pattern: /\b(analy[sz]e|analysis|investigate|compare|explain why)\b/i,
    reason: "asks for analysis",
    weight: 1,
  },
  { pattern: /\b(fix|bug|failing|fails|crash(es)?)\b/i, reason: "mentions a bug", weight: 1 },
];

/** Asks a small model does well; each lowers the score by one. */
const EASY_ASKS: readonly AskRule[] = [
  { pattern: /\b(classify|classification|categori[sz]e|label)\b/i, reason: "asks to classify", weight: -1 },
  { pattern: /\bextract(s|ing)?\b/i, reason: "asks to extract", weight: -1 },
  { pattern: /\b(summari[sz]e|summary|tl;?dr)\b/i, reason: "asks to summarize", weight: -1 },
  { pattern: /\btranslat(e|ion|ing)\b/i, reason: "asks to translate", weight: -1 },
  {
    pattern:
      /\byes or no\b|\byes\/no\b|\btrue or false\b|^\s*(is|are|does|do|can|should)\b[^.\n]{0,120}\?\s*$/i,
    reason: "asks a yes/no question",
    weight: -1,
  },
  {
    pattern: /\b(one|single|a) (word|line|sentence)\b|\bone-liner\b/i,
    reason: "asks for a one-line answer",
    weight: -1,
  },
];

/** The score at or above which each tier is chosen. */
const GOOD_AT = 2;
const BEST_AT = 4;
/** Hard asks add at most this much, so a prompt listing many keywords does not jump straight to best. */
const MAX_ASK_SCORE = 4;

/**
 * Chooses a tier for a helper task. `prompt` is the text of the arguments, `stdinLength` the number of
 * characters piped in (data to work on counts less than instructions), `toolCount` the number of tools
 * offered with `--tools`.
 */
export function classifyTier(prompt: string, stdinLength: number, toolCount = 0): TierChoice {
  const reasons: { reason: string; weight: number }[] = [];
  const add = (reason: string, weight: number) => reasons.push({ reason, weight });

  // Length: long instructions are rarely simple; long data on stdin is often just data.
  if (prompt.length > 4000) add("very long prompt", 3);
  else if (prompt.length > 1500) add("very long prompt", 2);
  else if (prompt.length > 600) add("long prompt", 1);
  if (stdinLength > 20_000) add("large input on stdin", 1);

  // Structure.
  if (/```/.test(prompt)) add("contains code", 1);
  const lines = prompt.split("\n").filter((line) => line.trim() !== "");
  const steps = lines.filter((line) => /^\s*(\d+[.)]|[-*•])\s+\S/.test(line)).length;
  if (steps >= 3) add(`lists ${steps} steps`, steps >= 6 ? 2 : 1);
  else if (lines.length > 15) add(`${lines.length} lines`, 1);

  // What it asks for.
  let askScore = 0;
  for (const rule of HARD_ASKS) {
    if (!rule.pattern.test(prompt)) continue;
    const weight = Math.min(rule.weight, MAX_ASK_SCORE - askScore);
    askScore += weight;
    add(rule.reason, weight);
  }
  for (const rule of EASY_ASKS) if (rule.pattern.test(prompt)) add(rule.reason, rule.weight);

  // Tools: more tools, more steps to orchestrate.
  if (toolCount >= 5) add(`${toolCount} tools requested`, 2);
  else if (toolCount >= 3) add(`${toolCount} tools requested`, 1);

  const score = reasons.reduce((sum, r) => sum + r.weight, 0);
  const tier: AutoTier = score >= BEST_AT ? "best" : score >= GOOD_AT ? "good" : "fast";
  const named = reasons
    .filter((r) => r.weight !== 0)
    .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight))
    .map((r) => r.reason);
  if (named.length === 0)
    named.push(prompt.length < 200 ? "short, simple request" : "no signs of a hard task");
  return { tier, reasons: named };
}

/** The one stderr line reporting the choice, e.g. `--tier auto chose good (long prompt, asks to refactor)`. */
export function describeTierChoice(choice: TierChoice, flag = "--tier"): string {
  return `${flag} auto chose ${choice.tier} (${choice.reasons.join(", ")})`;
}

/**
 * A model name with `auto` decided from the goal (the same classifier as `agent helper --tier auto`);
 * any other name is returned as it is. Used by `agent run --tier auto` / `--model auto` and by specs
 * whose `model` is `auto` (each agent's own goal decides).
 */
export function decideAuto(
  name: string,
  goal: string,
  toolCount = 0,
  stdinLength = 0,
): { name: string; auto?: TierChoice } {
  if (name.trim().toLowerCase() !== "auto") return { name };
  const auto = classifyTier(goal, stdinLength, toolCount);
  return { name: auto.tier, auto };
}
