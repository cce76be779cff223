/**
 * `gen_ai.provider.name` of a provider instance. The conventions' well-known values MUST be used where
 * one applies, a custom value otherwise (semantic-conventions v1.41.0 docs/gen-ai/gen-ai-spans.md, the
 * `gen_ai.provider.name` value table): `gcp.gemini` is the Gemini API at generativelanguage.googleapis.com,
 * which our `gemini` provider calls. An OpenAI-compatible server keeps the name config gives it (`ollama`),
 * or the well-known value when the name is one (`deepseek`, `groq`, ...).
 */
const WELL_KNOWN: Record<string, string> = {
  anthropic: "anthropic",
  openai: "openai",
  gemini: "gcp.gemini",
  deepseek: "deepseek",
  groq: "groq",
  mistral: "mistral_ai",
  mistral_ai: "mistral_ai",
  perplexity: "perplexity",
  xai: "x_ai",
  x_ai: "x_ai",
  cohere: "cohere",
};

export function genAiProvider(providerName: string): string {
  return WELL_KNOWN[providerName.toLowerCase()] ?? providerName;
}
