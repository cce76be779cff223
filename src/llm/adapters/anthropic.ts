/**
 * Anthropic Messages adapter on the official SDK (loaded on first use, SDK retries off), on the beta
 * surface for thinking block binding (see anthropic-convert.ts). Thinking blocks become `reasoning` parts
 * with their signatures; usage starts from message_start and is replaced by non-null message_delta values
 * (`input_tokens` already excludes cache reads and writes: total input = input + cache_creation + cache_read,
 * platform.claude.com/docs/en/build-with-claude/prompt-caching; `output_tokens` is "the inclusive,
 * authoritative total used for billing", thinking included, and `output_tokens_details.thinking_tokens`
 * the reasoning part of it: the SDK's BetaUsage type). Blocks the
 * API dropped (`message_start.message.input_transformations`) become a `warning` event.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type { ModelRequest, StreamEvent, StreamFn } from "../../kernel/conversation/stream.ts";
import { emptyUsage, type Usage } from "../../kernel/conversation/usage.ts";
import { type AdapterOptions, errorContext, runGuarded } from "./adapter.ts";
import { buildRequest, mapStopReason, newConvertMemo } from "./anthropic-convert.ts";
import { JsonTexts, rawJsonOptions } from "./json-body.ts";
import { MessageBuilder } from "./message-builder.ts";
import { withoutSdkDeprecationPrint } from "./sdk-deprecation-print.ts";

interface RawUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** One `input_transformations` entry (a block the API removed or let through despite a failed check). */
interface InputTransformation {
  type?: string;
  path?: string;
  reason?: string;
}

/** Applies every non-null count of `raw` to `usage`. */
function applyUsage(usage: Usage, raw: RawUsage | null | undefined): void {
  if (!raw) return;
  if (typeof raw.input_tokens === "number") usage.inputTokens = raw.input_tokens;
  if (typeof raw.output_tokens === "number") usage.outputTokens = raw.output_tokens;
  if (typeof raw.cache_read_input_tokens === "number") usage.cacheReadTokens = raw.cache_read_input_tokens;
  if (typeof raw.cache_creation_input_tokens === "number")
    usage.cacheWriteTokens = raw.cache_creation_input_tokens;
  const thinking = raw.output_tokens_details?.thinking_tokens;
  if (typeof thinking === "number") usage.reasoningTokens = thinking;
}

/** A warning naming the thinking blocks the API dropped, or undefined when it dropped none. */
export function droppedThinkingWarning(
  transformations: readonly InputTransformation[] | null | undefined,
): StreamEvent | undefined {
  const dropped = (transformations ?? []).filter((t) => t.type === "thinking_dropped");
  if (dropped.length === 0) return undefined;
  const where = dropped.map((t) => `${t.path ?? "?"} (${t.reason ?? "unknown reason"})`).join(", ");
  return {
    type: "warning",
    code: "thinking_dropped",
    message: `the API dropped ${dropped.length} thinking block${dropped.length === 1 ? "" : "s"} sent back: ${where}`,
  };
}

/** Creates the Anthropic stream function for one provider instance. */
export function anthropicStream(options: AdapterOptions): StreamFn {
  let client: Promise<Anthropic> | undefined;
  const getClient = () => {
    client ??= import("@anthropic-ai/sdk").then(
      ({ default: Sdk }) =>
        new Sdk({
          apiKey: options.apiKey,
          authToken: null,
          maxRetries: 0,
          // No SDK spans: agent's traces come from src/telemetry (redacted, its own provider). Left on,
          // the SDK builds span settings and attributes on every call (it holds a tracer even when only
          // the no-op global provider exists), and would hand unredacted requests to a global provider
          // someone else registered. ClientOptions.openTelemetry in @anthropic-ai/sdk 1.12 (and 1.14)
          // (src/client.ts): "`false`, short for `{ traces: false }`, disables the spans"; the SDK
          // "creates an OpenTelemetry span of its own for each API call ... unless it is turned off"
          // (pypi.org/project/openinference-instrumentation-anthropic, "Spans of the Anthropic SDK").
          openTelemetry: false,
          // Absent: the SDK default, which reads ANTHROPIC_BASE_URL.
          ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
        }),
    );
    return client;
  };

  // One memo per stream function (one per provider instance): each history message converts once.
  const memo = newConvertMemo();
  // The converted turns are shared between requests and never changed once sent (anthropic-convert.ts).
  const texts = new JsonTexts();
  return (request: ModelRequest) => {
    const builder = new MessageBuilder("anthropic");
    const ctx = errorContext("anthropic", options, request);
    return runGuarded(ctx, request, builder, () => body(request, builder));
  };

  async function* body(request: ModelRequest, builder: MessageBuilder): AsyncGenerator<StreamEvent> {
    const sdk = await getClient();
    const params = buildRequest(request, memo);
    // The body goes as text joined from each turn's remembered JSON (json-body.ts). `betas` is not part
    // of it: create() sends them as the anthropic-beta header. The params create() still reads (model,
    // stream, betas) go without the messages, which its SDK-helper header scan would walk whole; our
    // plain objects never carry the SDK's helper marks.
    const { betas: _header, ...wire } = params;
    // Our model_retiring warning replaces the SDK's own deprecation print (sdk-deprecation-print.ts).
    const stream = await withoutSdkDeprecationPrint(() =>
      sdk.beta.messages.create(
        { ...params, messages: [] },
        rawJsonOptions(texts.body(wire, "messages"), request.signal),
      ),
    );
    const usage = emptyUsage();
    let model = request.model.id;
    let rawStop: string | null = null;
    let stopped = false;
    for await (const event of stream) {
      const key = "index" in event ? String(event.index) : "";
      switch (event.type) {
        case "message_start": {
          model = event.message.model || model;
          applyUsage(usage, event.message.usage);
          const warning = droppedThinkingWarning(event.message.input_transformations);
          if (warning) yield warning;
          break;
        }
        case "content_block_start": {
          const block = event.content_block;
          if (block.type === "text") builder.text(key, block.text);
          else if (block.type === "thinking") {
            builder.reasoning(key, block.thinking);
            if (block.signature) builder.reasoningSignature(key, block.signature);
          } else if (block.type === "redacted_thinking") builder.redactedReasoning(block.data);
          else if (block.type === "tool_use") builder.toolStart(key, block.id, block.name);
          break;
        }
        case "content_block_delta": {
          const delta = event.delta;
          if (delta.type === "text_delta") builder.text(key, delta.text);
          else if (delta.type === "thinking_delta") builder.reasoning(key, delta.thinking);
          else if (delta.type === "signature_delta") builder.reasoningSignature(key, delta.signature);
          else if (delta.type === "input_json_delta") builder.toolArgs(key, delta.partial_json);
          break;
        }
        case "content_block_stop":
          builder.close(key);
          break;
        case "message_delta":
          if (event.delta.stop_reason) rawStop = event.delta.stop_reason;
          applyUsage(usage, event.usage as RawUsage);
          break;
        case "message_stop":
          stopped = true;
          break;
      }
      yield* builder.drain();
    }
    if (!stopped) return; // runGuarded turns a missing message_stop into a truncated error.
    yield* builder.finish({ stopReason: mapStopReason(rawStop), rawStopReason: rawStop, usage, model });
  }
}
