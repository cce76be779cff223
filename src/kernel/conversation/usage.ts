/**
 * Token counts reported by a provider for one or more model calls, as the provider bills them.
 * The four billed buckets are disjoint: `inputTokens` is input billed at the base rate (cache reads and
 * cache writes excluded, even where the wire reports them inside the prompt count, as OpenAI's
 * `prompt_tokens` and Gemini's `promptTokenCount` do), and `outputTokens` includes reasoning/thought tokens.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** The part of `outputTokens` spent on reasoning (OpenAI reasoning, Gemini thoughts); informational. */
  reasoningTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

/** A USD amount rounded to 6 decimals (a millionth of a dollar), as every JSON output prints costs. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

export function totalTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}

/** Usage and cost of one agent, and of its whole subtree (itself plus every descendant). */
export interface AgentUsageReport {
  agent: string;
  name: string;
  parent?: string;
  depth: number;
  model: string;
  usage: Usage;
  costUsd: number;
  subtree: { usage: Usage; costUsd: number };
}
