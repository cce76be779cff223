import { describe, expect, test } from "bun:test";
import { type AutoTier, classifyTier, describeTierChoice } from "../../../src/agents/loop/tier-classifier.ts";

const longText = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(" ");

interface Case {
  prompt: string;
  stdin?: number;
  tools?: number;
  tier: AutoTier;
  /** A reason that must be named. */
  reason?: string;
}

const CASES: Case[] = [
  { prompt: "say hi", tier: "fast", reason: "short, simple request" },
  { prompt: "Is 2027 a prime number? Answer yes or no.", tier: "fast", reason: "asks a yes/no question" },
  { prompt: "Translate 'good morning' into French", tier: "fast", reason: "asks to translate" },
  { prompt: "Classify this ticket as bug or feature", stdin: 400, tier: "fast", reason: "asks to classify" },
  { prompt: "Summarize this in one line", stdin: 8000, tier: "fast", reason: "asks to summarize" },
  { prompt: "Extract every email address", stdin: 3000, tier: "fast", reason: "asks to extract" },
  { prompt: "What does HTTP 418 mean?", tier: "fast" },
  {
    prompt: "Refactor this function to remove the duplication:\n```ts\nfunction a() {}\nfunction b() {}\n```",
    tier: "good",
    reason: "asks to refactor",
  },
  { prompt: "Review this diff for mistakes", stdin: 5000, tier: "good", reason: "asks to review" },
  { prompt: "Debug why the login test times out", tier: "good", reason: "asks to debug" },
  { prompt: "Plan the rollout of the new cache", tier: "good", reason: "asks to plan" },
  {
    prompt: `Please read the following notes carefully. ${longText(250)}`,
    tier: "good",
    reason: "very long prompt",
  },
  {
    prompt: `Refactor the parser below. ${longText(100)}`,
    tier: "good",
    reason: "long prompt",
  },
  {
    prompt: "Design the architecture of a multi-tenant billing service",
    tier: "best",
    reason: "asks about architecture",
  },
  { prompt: "Prove that the merge step terminates and analyze its complexity", tier: "best" },
  {
    prompt:
      "Do this:\n1. read the config\n2. find the unused keys\n3. remove them\n4. run the tests\n5. report",
    tools: 4,
    tier: "good",
    reason: "lists 5 steps",
  },
  { prompt: "Find the TODO comments", tools: 5, tier: "good", reason: "5 tools requested" },
  { prompt: "Find the TODO comments", tools: 1, tier: "fast" },
  {
    prompt: "Plan the migration from Postgres 12 to 16, review the risks and weigh the trade-offs",
    tier: "best",
    reason: "asks to migrate",
  },
];

describe("classifyTier", () => {
  for (const c of CASES) {
    test(`${c.tier}: ${c.prompt.split("\n")[0]?.slice(0, 60)}`, () => {
      const choice = classifyTier(c.prompt, c.stdin ?? 0, c.tools ?? 0);
      expect({ prompt: c.prompt, tier: choice.tier }).toEqual({ prompt: c.prompt, tier: c.tier });
      expect(choice.reasons.length).toBeGreaterThan(0);
      if (c.reason) expect(choice.reasons).toContain(c.reason);
    });
  }

  test("large piped data alone does not make a hard task", () => {
    expect(classifyTier("Summarize", 50_000).tier).toBe("fast");
  });

  test("keyword piles are capped: the ask score alone cannot exceed best's threshold by stacking", () => {
    const choice = classifyTier("refactor design migrate debug plan review", 0);
    expect(choice.tier).toBe("best");
    expect(choice.reasons.length).toBeGreaterThanOrEqual(2);
  });

  test("the report is one line naming the tier and the reasons", () => {
    const line = describeTierChoice({ tier: "good", reasons: ["long prompt", "asks to refactor"] });
    expect(line).toBe("--tier auto chose good (long prompt, asks to refactor)");
  });
});
