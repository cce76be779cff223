/** The rules of the real Gemini API that the fake server enforces (see fake-rules.ts). */
import { errorBody } from "./fake-llm-frames.ts";
import type { FakeRule, Refusal, RuleRequest } from "./fake-rules.ts";

interface Part {
  text?: string;
  functionCall?: { name?: string };
  functionResponse?: unknown;
  thoughtSignature?: string;
}
interface Content {
  role?: string;
  parts?: Part[];
}

/** Gemini 3 and later models validate thought signatures (gemini-3*, gemini-4*, ...). */
function validatesSignatures(model: string): boolean {
  const major = /^gemini-(\d+)/.exec(model)?.[1];
  return major !== undefined && Number(major) >= 3;
}

function invalidArgument(message: string): Refusal {
  return { status: 400, body: { error: { code: 400, message, status: "INVALID_ARGUMENT" } } };
}

/**
 * A Gemini 3 request whose current turn has a step without its thought signature. The rule
 * (ai.google.dev/gemini-api/docs/thought-signatures, "Signatures in function calling parts"): only the
 * current turn is validated, which starts after the latest `user` content with standard content (text,
 * not a functionResponse); in each model step of it, the first functionCall part must carry its
 * `thoughtSignature` (parallel calls carry one on the first call only). The error text is the API's, as
 * reported in github.com/csells/dartantic/pull/86 and github.com/manthanabc/paws/issues/103; the position
 * is the content's 1-based place in `contents`.
 */
const thoughtSignatureRule: FakeRule = (request: RuleRequest) => {
  if (!validatesSignatures(request.model)) return null;
  const contents = ((request.body ?? {}) as { contents?: Content[] }).contents ?? [];
  let turnStart = 0;
  contents.forEach((content, i) => {
    if (content.role === "user" && (content.parts ?? []).some((p) => typeof p.text === "string"))
      turnStart = i + 1;
  });
  for (let i = turnStart; i < contents.length; i++) {
    const content = contents[i];
    if (content?.role !== "model") continue;
    const first = (content.parts ?? []).find((p) => p.functionCall);
    if (!first || (typeof first.thoughtSignature === "string" && first.thoughtSignature !== "")) continue;
    return invalidArgument(
      `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall?.name ?? ""}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
    );
  }
  return null;
};

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

/**
 * Before Gemini 3, a function response carries no media: `functionResponse.parts` is answered with 400
 * "Unable to submit request because `function_response.parts` is not supported for this model. ..."
 * (google-gemini/gemini-cli#19436, on Gemini 2.5).
 */
const functionResponsePartsBeforeGemini3: FakeRule = (request) => {
  const version = /^gemini-(\d+)/.exec(request.model)?.[1];
  if (version === undefined || Number(version) >= 3) return null;
  const contents = (request.body as { contents?: Content[] } | null)?.contents ?? [];
  const withParts = contents.some((c) =>
    (c.parts ?? []).some(
      (p) => (p.functionResponse as { parts?: unknown[] } | undefined)?.parts !== undefined,
    ),
  );
  if (!withParts) return null;
  return invalidArgument(
    "Unable to submit request because `function_response.parts` is not supported for this model. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/function-calling",
  );
};

/**
 * Rule: a `thinkingLevel` the model does not offer is refused: 400 INVALID_ARGUMENT "Thinking level MEDIUM
 * is not supported for this model." (the Gemini API's text, quoted in RooCodeInc/Roo-Code#10700 and
 * heyhuynhgiabuu/proxypal#170). The thinking page (ai.google.dev/gemini-api/docs/thinking) lists levels up to
 * HIGH for Gemini 3.x; XHIGH arrived with the Gemini 4 models that take it (the ThinkingLevel enum of
 * @google/genai 3.3). The fake enforces the one case a regression could reach: XHIGH to a Gemini 3 model.
 */
const xhighBeforeGemini4: FakeRule = (request) => {
  const version = /^gemini-(\d+)/.exec(request.model)?.[1];
  if (version === undefined || Number(version) >= 4) return null;
  const body = request.body as { generationConfig?: { thinkingConfig?: { thinkingLevel?: string } } } | null;
  const level = body?.generationConfig?.thinkingConfig?.thinkingLevel;
  if (level !== "XHIGH") return null;
  return invalidArgument(`Thinking level ${level} is not supported for this model.`);
};

export const geminiRules: FakeRule[] = [
  thoughtSignatureRule,
  xhighBeforeGemini4,
  jsonMimeWithFunctionsBeforeGemini3,
  functionResponsePartsBeforeGemini3,
];
