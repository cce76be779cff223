/** The rules of the real Gemini API that the fake server enforces (see fake-rules.ts). */
import { errorBody } from "./fake-llm-frames.ts";
import type { FakeRule } from "./fake-rules.ts";

/**
 * Rule: before Gemini 3, a JSON response mime type cannot be combined with function declarations: 400
 * INVALID_ARGUMENT "Function calling with a response mime type: 'application/json' is unsupported"
 * (google-gemini/deprecated-generative-ai-swift#195; symfony/ai#1777 on gemini-2.5-flash;
 * google/adk-python#5735 on gemini-2.5-pro). Gemini 3 models accept both ("Structured outputs with
 * tools", ai.google.dev/gemini-api/docs/structured-output).
 */
const jsonMimeWithFunctionsBeforeGemini3: FakeRule = (request) => {
  const version = /^gemini-(\d+)/.exec(request.model)?.[1];
  if (version === undefined || Number(version) >= 3) return null;
  const body = request.body as {
    generationConfig?: { responseMimeType?: string };
    tools?: { functionDeclarations?: unknown[] }[];
  } | null;
  if (body?.generationConfig?.responseMimeType !== "application/json") return null;
  if (!body.tools?.some((t) => (t.functionDeclarations?.length ?? 0) > 0)) return null;
  return {
    status: 400,
    body: errorBody(
      "gemini",
      400,
      "Function calling with a response mime type: 'application/json' is unsupported",
    ),
  };
};

export const geminiRules: FakeRule[] = [jsonMimeWithFunctionsBeforeGemini3];
