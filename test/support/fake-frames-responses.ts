/**
 * Encodes a scripted fake-LLM turn as an OpenAI Responses stream (`POST /v1/responses`), in the real
 * event order: response.created, response.in_progress, then per output item output_item.added, its
 * deltas (reasoning summary, content_part/output_text or refusal, function_call_arguments) and
 * output_item.done, then one of response.completed / response.incomplete / (error + response.failed).
 * Each SSE frame is `event: <type>` + `data: <json>`, as the API sends it.
 *
 * Shapes follow test/fixtures/conformance/recorded-exchanges/openai-responses/ (the gpt-5.5 two-turn cassette,
 * the gpt-5-nano error-event chunks) and the `openai` SDK's responses.d.ts. A reasoning item's
 * `encrypted_content` differs between `.added` (a prefix) and `.done` (the whole value), as recorded.
 */
import type { FakeTurn, FakeUsage } from "./fake-llm-frames.ts";

/** The encrypted content the fake gives reasoning item `rs_fake_<turn>_<n>` (rules check it came back). */
export function fakeEncryptedContent(itemId: string): string {
  return `enc:${itemId}:complete`;
}

let responseCounter = 0;

function pieces(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? (value === "" ? [] : [value]) : value;
}

function split(text: string, n = 1): string[] {
  const count = Math.max(1, Math.min(n, Math.max(text.length, 1)));
  const size = Math.ceil(text.length / count);
  return Array.from({ length: count }, (_, i) => text.slice(i * size, (i + 1) * size));
}

/** One SSE frame in Responses framing. */
export function responsesFrame(event: { type: string }): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The event objects of a scripted turn, in order; `usage` is in billed terms (FakeUsage), put on the
 * wire as Responses reports it: `input_tokens` includes the cached and cache-written tokens,
 * `output_tokens` includes the reasoning tokens. */
function responsesEvents(turn: FakeTurn, model: string, usage: Required<FakeUsage>): { type: string }[] {
  const n = ++responseCounter;
  const id = `resp_fake_${n}`;
  const base = {
    id,
    object: "response",
    created_at: 1_790_000_000,
    model,
    store: false,
    ...(turn.inputTransformations ? { input_transformations: turn.inputTransformations } : {}),
  };
  const events: { type: string; [key: string]: unknown }[] = [];
  const output: unknown[] = [];
  const push = (event: { type: string; [key: string]: unknown }) => {
    events.push({ ...event, sequence_number: events.length });
  };
  push({ type: "response.created", response: { ...base, status: "in_progress", output: [], usage: null } });
  push({
    type: "response.in_progress",
    response: { ...base, status: "in_progress", output: [], usage: null },
  });

  const addItem = (item: Record<string, unknown>, deltas: () => void, done: Record<string, unknown>) => {
    const output_index = output.length;
    push({ type: "response.output_item.added", output_index, item });
    deltas();
    push({ type: "response.output_item.done", output_index, item: done });
    output.push(done);
  };

  // Summaries stream only when the request asked for them (`reasoning.summary`); the item still comes.
  const scripted = pieces(turn.reasoning);
  const reasoning = turn.withholdSummary ? [] : scripted;
  if (scripted.length > 0 || usage.reasoning > 0) {
    const itemId = `rs_fake_${n}_0`;
    const full = fakeEncryptedContent(itemId);
    const summaryText = reasoning.join("");
    addItem(
      { id: itemId, type: "reasoning", summary: [], encrypted_content: full.slice(0, 8) },
      () => {
        for (const delta of reasoning) {
          push({ type: "response.reasoning_summary_text.delta", item_id: itemId, summary_index: 0, delta });
        }
      },
      {
        id: itemId,
        type: "reasoning",
        summary: summaryText ? [{ type: "summary_text", text: summaryText }] : [],
        encrypted_content: full,
      },
    );
  }

  const calls = turn.toolCalls ?? [];
  const text = pieces(turn.text);
  const refusal = turn.refusal;
  if (text.length > 0 || refusal !== undefined) {
    const itemId = `msg_fake_${n}`;
    const phase = turn.phase ?? (calls.length > 0 ? "commentary" : "final_answer");
    const whole = refusal ?? text.join("");
    const part =
      refusal !== undefined
        ? { type: "refusal", refusal }
        : { type: "output_text", text: whole, annotations: [] };
    addItem(
      { id: itemId, type: "message", status: "in_progress", role: "assistant", phase, content: [] },
      () => {
        const emptyPart =
          refusal !== undefined
            ? { type: "refusal", refusal: "" }
            : { type: "output_text", text: "", annotations: [] };
        push({
          type: "response.content_part.added",
          item_id: itemId,
          output_index: output.length,
          content_index: 0,
          part: emptyPart,
        });
        if (refusal !== undefined) {
          push({
            type: "response.refusal.delta",
            item_id: itemId,
            output_index: output.length,
            content_index: 0,
            delta: refusal,
          });
          push({
            type: "response.refusal.done",
            item_id: itemId,
            output_index: output.length,
            content_index: 0,
            refusal,
          });
        } else {
          for (const delta of text) {
            push({
              type: "response.output_text.delta",
              item_id: itemId,
              output_index: output.length,
              content_index: 0,
              delta,
              logprobs: [],
            });
          }
          push({
            type: "response.output_text.done",
            item_id: itemId,
            output_index: output.length,
            content_index: 0,
            text: whole,
            logprobs: [],
          });
        }
        push({
          type: "response.content_part.done",
          item_id: itemId,
          output_index: output.length,
          content_index: 0,
          part,
        });
      },
      { id: itemId, type: "message", status: "completed", role: "assistant", phase, content: [part] },
    );
  }

  calls.forEach((call, index) => {
    const itemId = `fc_fake_${n}_${index}`;
    const callId = call.id ?? `call_fake_${n}_${index}`;
    const args = typeof call.args === "string" ? call.args : JSON.stringify(call.args);
    const item = { id: itemId, type: "function_call", call_id: callId, name: call.name };
    addItem(
      { ...item, status: "in_progress", arguments: "" },
      () => {
        for (const delta of split(args, call.fragments)) {
          push({
            type: "response.function_call_arguments.delta",
            item_id: itemId,
            output_index: output.length,
            delta,
          });
        }
        push({
          type: "response.function_call_arguments.done",
          item_id: itemId,
          output_index: output.length,
          arguments: args,
        });
      },
      { ...item, status: "completed", arguments: args },
    );
  });

  const usageObject = {
    input_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
    input_tokens_details: { cached_tokens: usage.cacheRead, cache_write_tokens: usage.cacheWrite },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.cacheRead + usage.cacheWrite + usage.output,
  };
  if (turn.streamError) {
    const error = {
      type: turn.streamError.code,
      code: turn.streamError.code,
      message: turn.streamError.message,
      param: null,
    };
    push({ type: "error", error });
    push({
      type: "response.failed",
      response: {
        ...base,
        status: "failed",
        output: [],
        usage: null,
        error: { code: error.code, message: error.message },
      },
    });
    return events;
  }
  const incomplete = turn.stopReason === "max_output_tokens" || turn.stopReason === "content_filter";
  push({
    type: incomplete ? "response.incomplete" : "response.completed",
    response: {
      ...base,
      status: incomplete ? "incomplete" : "completed",
      incomplete_details: incomplete ? { reason: turn.stopReason } : null,
      output,
      usage: usageObject,
    },
  });
  return events;
}

/** The SSE frames of a scripted turn (`rawSse` is served by encodeTurn before this is called). */
export function encodeResponsesTurn(turn: FakeTurn, model: string, usage: Required<FakeUsage>): string[] {
  if (turn.rawEvents)
    return turn.rawEvents.map((line) => responsesFrame(JSON.parse(line) as { type: string }));
  return responsesEvents(turn, model, usage).map(responsesFrame);
}
