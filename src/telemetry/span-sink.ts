/**
 * The session's event stream as OpenTelemetry spans, following the GenAI semantic conventions v1.41.0
 * (Development status): docs/gen-ai/gen-ai-agent-spans.md ("Invoke agent internal span") and
 * docs/gen-ai/gen-ai-spans.md ("Inference", "Execute tool span") in open-telemetry/semantic-conventions.
 *
 * - a run is the root span `invoke_agent {agent}`; a sub-agent is `invoke_agent {agent}` under the
 *   `execute_tool {agent}` span of the delegation that started it;
 * - each model call is `chat {model}` (kind CLIENT) under its agent, with usage, finish reason and cost;
 * - each tool call is `execute_tool {tool}` under its agent, with its outcome and, for a denial, who decided.
 *
 * Attributes of our own are namespaced `agent.` (`agent.cost_usd`, `agent.tool.outcome`, ...). Events
 * arrive redacted (the session's redaction); contents (goal, answers, tool arguments and results) are
 * recorded only with `includeContent`. Span times are the events' times.
 */
import {
  type Context,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { ATTR_ERROR_TYPE } from "@opentelemetry/semantic-conventions";
import { type AgentEvent, addUsage, emptyUsage, roundUsd, type Usage } from "../kernel/index.ts";
import { GEN_AI } from "./gen-ai-attributes.ts";
import { genAiProvider } from "./provider-name.ts";

export interface SpanSinkOptions {
  tracer: Tracer;
  /** The trace a run joins (TRACEPARENT); the root context otherwise. */
  parent: Context;
  includeContent: boolean;
  /** Also set `gen_ai.system` (settings.ts `legacyAttributes`). */
  legacyAttributes: boolean;
  /** USD of one model call's usage (the catalog's prices), for `agent.cost_usd`. */
  costOf(model: string, usage: Usage): number;
}

/** One agent's open span and what it has spent so far (itself and its sub-agents). */
interface AgentSpan {
  span: Span;
  parent?: string;
  usage: Usage;
  costUsd: number;
  provider?: string;
  model?: string;
}

/** What opens an agent's span. */
interface StartedAgent {
  id: string;
  name: string;
  depth: number;
  time: number;
  goal: string;
  parent?: string;
  model?: string;
  sessionId?: string;
}

/** Builds spans from events; `end()` closes whatever is still open (an interrupted run). */
export function createSpanSink(options: SpanSinkOptions): { onEvent(event: AgentEvent): void; end(): void } {
  const { tracer } = options;
  const agents = new Map<string, AgentSpan>();
  const tools = new Map<string, Span>();
  const chats = new Map<string, { span: Span; model: string }>();
  const toolKey = (agent: string, id: string) => `${agent}\u0000${id}`;
  /** The session's id (gen_ai.conversation.id), from the root's session_start, for its sub-agents too. */
  let conversation: string | undefined;

  const within = (span: Span | undefined): Context =>
    span ? trace.setSpan(ROOT_CONTEXT, span) : options.parent;

  const content = (span: Span, key: string, data: unknown) => {
    if (options.includeContent)
      span.setAttribute(key, typeof data === "string" ? data : JSON.stringify(data));
  };

  const providerAttributes = (provider: string): Record<string, string> => {
    const name = genAiProvider(provider);
    return options.legacyAttributes
      ? { [GEN_AI.providerName]: name, [GEN_AI.system]: name }
      : { [GEN_AI.providerName]: name };
  };

  const failed = (span: Span, errorType: string) => {
    span.setAttribute(ATTR_ERROR_TYPE, errorType);
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
  };

  /** Ends an agent's span with its totals, and every span of it still open. */
  const endAgent = (id: string, time: number) => {
    const open = agents.get(id);
    if (!open) return;
    agents.delete(id);
    for (const [key, span] of tools) {
      if (key.startsWith(`${id}\u0000`)) {
        tools.delete(key);
        span.end(time);
      }
    }
    chats.get(id)?.span.end(time);
    chats.delete(id);
    open.span.setAttributes({
      [GEN_AI.usageInputTokens]: inputTokens(open.usage),
      [GEN_AI.usageOutputTokens]: open.usage.outputTokens,
      "agent.cost_usd": roundUsd(open.costUsd),
    });
    open.span.end(time);
  };

  /** Opens an agent's invoke_agent span: the root at its session_start, a sub-agent at the act_start
   * of its delegation (sub-agents have no session_start), under that delegation's execute_tool span. */
  const startAgent = (agent: StartedAgent, parentSpan: Span | undefined) => {
    if (agents.has(agent.id)) return;
    const span = tracer.startSpan(
      `invoke_agent ${agent.name}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: agent.time,
        attributes: {
          [GEN_AI.operationName]: "invoke_agent",
          [GEN_AI.agentName]: agent.name,
          [GEN_AI.agentId]: agent.id,
          "agent.depth": agent.depth,
          ...(agent.model !== undefined ? { [GEN_AI.requestModel]: agent.model } : {}),
          ...(agent.sessionId ? { [GEN_AI.conversationId]: agent.sessionId } : {}),
        },
      },
      within(parentSpan),
    );
    content(span, GEN_AI.inputMessages, [userText(agent.goal)]);
    agents.set(agent.id, {
      span,
      ...(agent.parent !== undefined ? { parent: agent.parent } : {}),
      usage: emptyUsage(),
      costUsd: 0,
      ...(agent.model !== undefined ? { model: agent.model } : {}),
    });
  };

  /** Adds one model call's usage and cost to its agent and every agent above it. */
  const spend = (agent: string, usage: Usage, costUsd: number) => {
    for (let at = agents.get(agent); at; at = at.parent ? agents.get(at.parent) : undefined) {
      at.usage = addUsage(at.usage, usage);
      at.costUsd += costUsd;
    }
  };

  const handlers: { [K in AgentEvent["kind"]]?: (event: AgentEvent<K>) => void } = {
    session_start(event) {
      const { agentName, goal, model, sessionId } = event.data;
      if (sessionId !== "") conversation = sessionId;
      const parentSpan = event.parent ? agents.get(event.parent)?.span : undefined;
      startAgent(
        { id: event.agent, name: agentName, depth: event.depth, time: event.time, goal, model, sessionId },
        parentSpan,
      );
    },
    plan_start(event) {
      const owner = agents.get(event.agent);
      const provider = event.data.provider;
      if (owner && provider !== undefined && owner.provider === undefined) {
        owner.provider = provider;
        owner.span.setAttributes(providerAttributes(provider));
      }
      if (owner && owner.model === undefined) {
        owner.model = event.data.model;
        owner.span.setAttribute(GEN_AI.requestModel, event.data.model);
      }
      const span = tracer.startSpan(
        `chat ${event.data.model}`,
        {
          kind: SpanKind.CLIENT,
          startTime: event.time,
          attributes: {
            [GEN_AI.operationName]: "chat",
            [GEN_AI.requestModel]: event.data.model,
            ...(provider !== undefined ? providerAttributes(provider) : {}),
            "agent.turn": event.data.turn,
          },
        },
        within(owner?.span),
      );
      chats.get(event.agent)?.span.end(event.time);
      chats.set(event.agent, { span, model: event.data.model });
    },
    plan_end(event) {
      const open = chats.get(event.agent);
      if (!open) return;
      chats.delete(event.agent);
      const { usage, stopReason } = event.data;
      const costUsd = options.costOf(open.model, usage);
      spend(event.agent, usage, costUsd);
      const error = stopReason.startsWith("error:") ? stopReason.slice("error:".length) : undefined;
      open.span.setAttributes({
        [GEN_AI.usageInputTokens]: inputTokens(usage),
        [GEN_AI.usageOutputTokens]: usage.outputTokens,
        [GEN_AI.usageCacheReadInputTokens]: usage.cacheReadTokens,
        [GEN_AI.usageCacheCreationInputTokens]: usage.cacheWriteTokens,
        "agent.usage.reasoning_tokens": usage.reasoningTokens,
        "agent.cost_usd": roundUsd(costUsd),
        ...(error === undefined ? { [GEN_AI.responseFinishReasons]: [stopReason] } : {}),
      });
      if (error !== undefined) failed(open.span, error);
      const parts = [
        ...(event.data.text !== "" ? [{ type: "text", content: event.data.text }] : []),
        ...event.data.toolCalls.map((call) => ({ type: "tool_call", id: call.id, name: call.name })),
      ];
      content(open.span, GEN_AI.outputMessages, [{ role: "assistant", parts, finish_reason: stopReason }]);
      open.span.end(event.time);
    },
    tool_start(event) {
      const { id, tool, kind, args } = event.data;
      const span = tracer.startSpan(
        `execute_tool ${tool}`,
        {
          kind: SpanKind.INTERNAL,
          startTime: event.time,
          attributes: {
            [GEN_AI.operationName]: "execute_tool",
            [GEN_AI.toolName]: tool,
            [GEN_AI.toolCallId]: id,
            // Run by this process for the model: `function`; an MCP server's tool calls out: `extension`.
            [GEN_AI.toolType]: kind === "mcp" ? "extension" : "function",
            "agent.tool.kind": kind ?? "primitive",
          },
        },
        within(agents.get(event.agent)?.span),
      );
      content(span, GEN_AI.toolCallArguments, args);
      tools.set(toolKey(event.agent, id), span);
    },
    tool_end(event) {
      const key = toolKey(event.agent, event.data.id);
      const span = tools.get(key);
      if (!span) return;
      tools.delete(key);
      const { outcome, decidedBy, rule, isError, durationMs } = event.data;
      span.setAttributes({
        "agent.tool.outcome": outcome ?? (isError ? "tool_error" : "ok"),
        "agent.tool.duration_ms": durationMs,
        ...(decidedBy !== undefined ? { "agent.tool.decided_by": decidedBy } : {}),
        ...(rule !== undefined ? { "agent.tool.rule": rule } : {}),
      });
      if (isError) failed(span, outcome ?? "tool_error");
      else content(span, GEN_AI.toolCallResult, event.data.summary);
      span.end(event.time);
    },
    act_start(event) {
      const { child, childName, goal, id } = event.data;
      const parentSpan = tools.get(toolKey(event.agent, id)) ?? agents.get(event.agent)?.span;
      startAgent(
        {
          id: child,
          name: childName,
          depth: event.depth + 1,
          time: event.time,
          goal,
          parent: event.agent,
          ...(conversation !== undefined ? { sessionId: conversation } : {}),
        },
        parentSpan,
      );
    },
    act_end(event) {
      const child = agents.get(event.data.child);
      if (!child) return;
      finishAgent(child.span, event.data);
      endAgent(event.data.child, event.time);
    },
    model_switch(event) {
      agents
        .get(event.agent)
        ?.span.addEvent(
          "agent.model_switch",
          { "agent.from": event.data.from, "agent.to": event.data.to },
          event.time,
        );
    },
    compaction(event) {
      agents
        .get(event.agent)
        ?.span.addEvent(
          "agent.compaction",
          { "agent.reason": event.data.reason, "agent.summarized": event.data.summarized },
          event.time,
        );
    },
    session_end(event) {
      const root = agents.get(event.agent);
      if (!root) return;
      finishAgent(root.span, event.data);
      // The run's own total (the result's), over the sum of what the chat spans saw.
      const total = event.data.usage.find((report) => report.agent === event.agent);
      if (total) root.costUsd = total.subtree.costUsd;
      for (const id of [...agents.keys()]) if (id !== event.agent) endAgent(id, event.time);
      endAgent(event.agent, event.time);
    },
  };

  /** The run's outcome on its invoke_agent span. */
  const finishAgent = (
    span: Span,
    result: { status: string; finishReason: string; answer: string; error?: { kind: string } },
  ) => {
    span.setAttributes({ "agent.status": result.status, "agent.finish_reason": result.finishReason });
    if (result.status !== "success") failed(span, result.error?.kind ?? result.finishReason);
    content(span, GEN_AI.outputMessages, [
      {
        role: "assistant",
        parts: [{ type: "text", content: result.answer }],
        finish_reason: result.finishReason,
      },
    ]);
  };

  return {
    onEvent(event) {
      const handle = handlers[event.kind] as ((event: AgentEvent) => void) | undefined;
      handle?.(event);
    },
    end() {
      const now = Date.now();
      // Children first, so each parent ends after what it holds.
      const byDepth = [...agents.keys()].sort((a, b) => b.split("/").length - a.split("/").length);
      for (const id of byDepth) endAgent(id, now);
    },
  };
}

/** Input tokens as the conventions count them: cache reads and writes included (v1.41.0 notes on
 * gen_ai.usage.cache_read.input_tokens and cache_creation.input_tokens); ours keeps them apart. */
function inputTokens(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
}

function userText(text: string) {
  return { role: "user", parts: [{ type: "text", content: text }] };
}
