/**
 * OpenAI Responses adapter (`POST /v1/responses`, streamed) on the official SDK, for the official OpenAI
 * endpoint: its current reasoning models refuse function tools on Chat Completions ("Function tools with
 * reasoning_effort are not supported for <model> in /v1/chat/completions. To use function tools, use
 * /v1/responses …", openai/openai-openapi#541, GEMISIS/leviath#333; deployment checklist: "GPT-6 Astra and
 * GPT-6.1 Sol require Responses for tool calling").
 *
 * Every output item is kept on the normalized message so the next request sends it back unchanged:
 * reasoning items with the `encrypted_content` of `response.output_item.done` (the `.added` one may be
 * incomplete, responses.d.ts), messages with their id and `phase`, function calls with their `fc_` id.
 * An error inside the 200 stream (`error` event, `response.failed`) is a classified terminal error;
 * `response.incomplete` for `max_output_tokens` ends as `max_tokens`, for `content_filter` as `refusal`;
 * a `refusal` content part ends as `refusal` (its text is kept as the answer).
 */
import type OpenAI from "openai";
import type { ModelRequest, StopReason, StreamEvent, StreamFn } from "../../kernel/conversation/stream.ts";
import { classifyStreamError, type ErrorContext } from "../errors.ts";
import { type AdapterOptions, errorContext, lazyOpenAiClient, runGuarded } from "./adapter.ts";
import { JsonTexts, rawJsonOptions } from "./json-body.ts";
import { MessageBuilder } from "./message-builder.ts";
import {
  buildResponsesRequest,
  operationPatch,
  type ResponsesConvertMemo,
  responsesFeatures,
  responsesUsage,
} from "./openai-responses-convert.ts";
import { type RefusableSetting, RefusedSettings, sendDroppingRefused } from "./refused-settings.ts";

type Item = OpenAI.Responses.ResponseOutputItem;

/**
 * Reasoning summaries for an organization OpenAI has not verified: 400 "Your organization must be verified
 * to generate reasoning summaries. Please go to: https://platform.openai.com/settings/organization/general
 * …" (param `reasoning.summary`, code `unsupported_value`: continuedev/continue#9283,
 * OpenHands/software-agent-sdk#987). A fact of the account, so off for every model of the provider; the
 * model itself can serve the request, so this is not a reason to move to the next candidate.
 */
const REASONING_SUMMARIES: RefusableSetting = {
  code: "reasoning_summaries_off",
  scope: "provider",
  refusedBy: (r) => r.status === 400 && /must be verified to generate reasoning summaries/i.test(r.message),
  warning: (_model, message) => `reasoning summaries are off for this session: ${message}`,
};

/**
 * Encrypted reasoning asked of a model that does not reason: 400 "Encrypted content is not supported with
 * this model." (param `include`: pydantic/pydantic-ai#3326, microsoft/agent-framework#7577). Reached only
 * by a model the catalog does not know not to reason (an id outside it, or gpt-5-chat-latest).
 */
const ENCRYPTED_REASONING: RefusableSetting = {
  code: "encrypted_reasoning_off",
  scope: "model",
  refusedBy: (r) => r.status === 400 && /Encrypted content is not supported/i.test(r.message),
  warning: (model, message) => `${model}: reasoning is not carried between turns (${message})`,
};

const RESPONSES_SETTINGS = [REASONING_SUMMARIES, ENCRYPTED_REASONING];
type Response = OpenAI.Responses.Response;

/** Creates the OpenAI Responses stream function for one provider instance. */
export function openaiResponsesStream(options: AdapterOptions): StreamFn {
  const getClient = lazyOpenAiClient(options);
  const memo: ResponsesConvertMemo = new WeakMap();
  const texts = new JsonTexts();
  // Settings this account or model refused, kept for the session (refused-settings.ts).
  const refused = new RefusedSettings();

  return (request: ModelRequest) => {
    const builder = new MessageBuilder("openai");
    const ctx = errorContext("openai", options, request);
    return runGuarded(ctx, request, builder, () => body(request, builder, ctx));
  };

  async function* body(
    request: ModelRequest,
    builder: MessageBuilder,
    ctx: ErrorContext,
  ): AsyncGenerator<StreamEvent> {
    const sdk = await getClient();
    const model0 = request.model.id;
    const stream = yield* sendDroppingRefused(refused, model0, RESPONSES_SETTINGS, (isOff) => {
      const wanted = responsesFeatures(model0);
      const features = {
        encryptedReasoning: wanted.encryptedReasoning && !isOff(ENCRYPTED_REASONING),
        reasoningSummary: wanted.reasoningSummary && !isOff(REASONING_SUMMARIES),
      };
      const params = buildResponsesRequest(request, memo, features);
      const carried = [
        ...(features.encryptedReasoning ? [ENCRYPTED_REASONING] : []),
        ...(params.reasoning?.summary ? [REASONING_SUMMARIES] : []),
      ];
      // The body goes as text joined from each input item's remembered JSON (json-body.ts); create()
      // gets its params without the history, as in openai.ts.
      const response = () =>
        sdk.responses.create(
          { ...params, input: [] },
          rawJsonOptions(texts.body(params, "input"), request.signal),
        );
      return { carried, response };
    });
    const turn = new TurnState(builder);
    let model = model0;
    let warned = false;
    for await (const event of stream) {
      switch (event.type) {
        case "response.created":
        case "response.in_progress":
          if (event.response.model) model = event.response.model;
          if (!warned) {
            const warning = withheldReasoningWarning(event.response.input_transformations);
            if (warning) {
              warned = true;
              yield warning;
            }
          }
          break;
        case "response.output_item.added":
          turn.added(event.item);
          break;
        case "response.output_text.delta":
          builder.text(event.item_id, event.delta);
          break;
        case "response.refusal.delta":
          turn.refused = true;
          builder.text(event.item_id, event.delta);
          break;
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta":
          builder.reasoning(event.item_id, event.delta);
          break;
        case "response.function_call_arguments.delta":
          turn.args(event.item_id, event.delta);
          break;
        case "response.output_item.done":
          turn.done(event.item);
          break;
        case "response.completed":
        case "response.incomplete": {
          yield* builder.drain();
          const withheld = warned
            ? undefined
            : withheldReasoningWarning(event.response.input_transformations);
          if (withheld) yield withheld;
          const end = turn.end(event.response);
          if (end.error) {
            yield { type: "error", error: classifyStreamError(ctx, end.error), partial: builder.message() };
            return;
          }
          yield* builder.finish({
            stopReason: end.stopReason,
            rawStopReason: end.raw,
            usage: responsesUsage(event.response.usage),
            model: event.response.model || model,
          });
          return;
        }
        case "response.failed": {
          const failure = event.response.error;
          yield {
            type: "error",
            error: classifyStreamError(ctx, {
              code: failure?.code ?? null,
              message: failure?.message ?? "response.failed",
            }),
            partial: builder.message(),
          };
          return;
        }
        default:
          break;
      }
      yield* builder.drain();
    }
    // No terminal event: runGuarded reports a truncated stream.
  }
}

/**
 * A warning naming the reasoning items OpenAI withheld from the model (`Response.input_transformations`:
 * `{id, type: "reasoning", action: "removed", reason: "model_mismatch" | "prefix_mismatch" | ...}`,
 * node_modules/openai/resources/responses/responses.d.ts), like Anthropic's `thinking_dropped`; undefined
 * when none was.
 */
export function withheldReasoningWarning(
  transformations: readonly { id?: string; type?: string; reason?: string }[] | null | undefined,
): StreamEvent | undefined {
  const removed = (transformations ?? []).filter((t) => t.type === "reasoning");
  if (removed.length === 0) return undefined;
  const which = removed.map((t) => `${t.id ?? "?"} (${t.reason ?? "unknown reason"})`).join(", ");
  return {
    type: "warning",
    code: "reasoning_dropped",
    message: `the API withheld ${removed.length} reasoning item${removed.length === 1 ? "" : "s"} sent back: ${which}`,
  };
}

/** What one response has produced so far, keyed by output item id. */
class TurnState {
  refused = false;
  private calls = 0;
  /** Tool calls whose arguments came as deltas (otherwise the `.done` item carries them whole). */
  private readonly streamedArgs = new Set<string>();

  constructor(private readonly builder: MessageBuilder) {}

  added(item: Item): void {
    if (item.type === "function_call") {
      this.openCall(item.id ?? item.call_id, item.call_id, item.name);
    } else if (item.type === "apply_patch_call") {
      this.openCall(item.id, item.call_id, "apply_patch");
    }
  }

  args(itemId: string, delta: string): void {
    this.streamedArgs.add(itemId);
    this.builder.toolArgs(itemId, delta);
  }

  done(item: Item): void {
    const b = this.builder;
    switch (item.type) {
      case "reasoning": {
        // The `.done` item holds the complete encrypted content.
        const summary = item.summary.map((s) => s.text).join("\n");
        if (!b.isOpen(item.id)) b.reasoning(item.id, summary);
        const fields: { itemId: string; signature?: string } = { itemId: item.id };
        if (item.encrypted_content) fields.signature = item.encrypted_content;
        b.annotate(item.id, fields);
        b.close(item.id);
        break;
      }
      case "message": {
        if (!b.isOpen(item.id)) {
          for (const part of item.content) {
            if (part.type === "refusal") this.refused = true;
            b.text(item.id, part.type === "refusal" ? part.refusal : part.text);
          }
        }
        b.annotate(item.id, item.phase ? { itemId: item.id, phase: item.phase } : { itemId: item.id });
        b.close(item.id);
        break;
      }
      case "function_call": {
        const key = item.id ?? item.call_id;
        if (!b.isOpen(key)) this.openCall(key, item.call_id, item.name);
        if (!this.streamedArgs.has(key)) b.toolArgs(key, item.arguments);
        b.close(key);
        break;
      }
      case "apply_patch_call": {
        if (!b.isOpen(item.id)) this.openCall(item.id, item.call_id, "apply_patch");
        const operation = { ...item.operation };
        b.toolArgsObject(item.id, { patch: operationPatch(operation) });
        b.annotate(item.id, { applyPatchOperation: operation });
        b.close(item.id);
        break;
      }
      default:
        break;
    }
  }

  /** How the response ended: a stop reason, or an error for an incomplete response we cannot use. */
  end(response: Response): {
    stopReason: StopReason;
    raw: string;
    error?: { code: string | null; message: string };
  } {
    if (response.status === "incomplete") {
      const reason = response.incomplete_details?.reason ?? "unknown";
      if (reason === "max_output_tokens") return { stopReason: "max_tokens", raw: reason };
      if (reason === "content_filter") return { stopReason: "refusal", raw: reason };
      return {
        stopReason: "other",
        raw: reason,
        error: { code: reason, message: `response incomplete: ${reason}` },
      };
    }
    const raw = response.status ?? "completed";
    if (this.refused) return { stopReason: "refusal", raw: "refusal" };
    return { stopReason: this.calls > 0 ? "tool_calls" : "end", raw };
  }

  private openCall(key: string, callId: string, name: string): void {
    this.calls++;
    this.builder.toolStart(key, callId, name);
    this.builder.annotate(key, { itemId: key });
  }
}
