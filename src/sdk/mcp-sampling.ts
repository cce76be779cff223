/**
 * A server's sampling request (`sampling/createMessage`, MCP 2025-06-18 "Sampling"), for a server whose
 * config says `sampling: true`: put to the approval gate like a call of that server's tool
 * (`mcp:SERVER/sampling`: a rule `--allow 'mcp:docs/sampling'` or a yes at the prompt; off a terminal it
 * is denied unless a rule allows it), then one call of the `fast` tier with the server's system prompt
 * and messages (text only: other content is named), without tools. A refusal or a failed call is an
 * error the server reads; it never hangs.
 */
import { streamReply } from "../agents/loop/stream-reply.ts";
import { type AgentIdentity, assistantText, type Message } from "../kernel/index.ts";
import type { ModelClient } from "../llm/client.ts";
import type { ApprovalGate } from "../policy/gate.ts";
import type { McpClientHandlers } from "../tools/mcp/client-requests.ts";

type Sample = NonNullable<McpClientHandlers["sample"]>;
type Params = Parameters<Sample>[1];

/** The tier sampling runs on. */
export const SAMPLING_TIER = "fast";

export function mcpSampling(client: ModelClient, gate: ApprovalGate, who: AgentIdentity): Sample {
  return async (server, params, signal) => {
    const messages = params.messages.map(messageOf);
    const asked = messages.map(textOf).join("\n");
    const decision = await gate.check(
      {
        who,
        tool: `mcp:${server}/sampling`,
        args: { system_prompt: params.systemPrompt ?? "", messages: asked, max_tokens: params.maxTokens },
        request: { tool: "mcp", targets: [`${server}/sampling`], readOnly: false, sensitive: false },
        preview: async () => `MCP server ${server} asks the ${SAMPLING_TIER} model: ${asked.slice(0, 500)}`,
      },
      signal,
    );
    // A thrown error is answered as a JSON-RPC error (the SDK's request handling); plain Errors keep the
    // MCP SDK out of a session's start when no server is configured.
    if (!decision.allowed) throw new Error(`sampling declined: ${decision.message}`);
    const model = client.resolve(SAMPLING_TIER).ref;
    const reply = await streamReply(
      {
        model,
        system: params.systemPrompt ?? "",
        messages,
        tools: [],
        maxOutputTokens: params.maxTokens,
        signal,
      },
      client.stream,
      who,
      () => {},
    );
    if (!reply.ok) throw new Error(`sampling failed: ${reply.error.message}`);
    return {
      role: "assistant",
      content: { type: "text", text: assistantText(reply.message) },
      model: model.id,
      stopReason: "endTurn",
    };
  };
}

function textOf(message: Message): string {
  if (message.role === "assistant") return assistantText(message);
  return message.content;
}

/** A sampling message as ours: its text, other content named. */
function messageOf(message: Params["messages"][number]): Message {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const text = blocks
    .map((b) => (b.type === "text" ? b.text : `[${b.type} not passed to the model]`))
    .join("\n");
  return message.role === "user"
    ? { role: "user", content: text }
    : { role: "assistant", parts: [{ type: "text", text }] };
}
