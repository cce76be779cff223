/**
 * The GenAI attribute names we set, copied from the semantic conventions v1.41.0 registry
 * (docs/registry/attributes/gen-ai.md; the same names as ATTR_GEN_AI_* of
 * @opentelemetry/semantic-conventions/incubating 1.45.0). Copied, not imported: the package's README asks
 * instrumentations not to import its "incubating" entry at run time, as it may break in minor versions
 * ("copy relevant definitions into their own code base"); it is also the larger part of its load time.
 */
export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  /** The provider attribute of v1.36 and before (settings.ts `legacyAttributes`). */
  system: "gen_ai.system",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  usageCacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  usageCacheCreationInputTokens: "gen_ai.usage.cache_creation.input_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  // Opt-in contents (include_content), as JSON strings where the conventions allow structured values.
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
} as const;
