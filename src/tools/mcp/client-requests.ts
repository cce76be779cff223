/**
 * What our MCP client offers servers, and how it answers their requests (MCP 2025-06-18 "Client
 * Features"): `roots` (the workspace folders as file:// URIs, with `listChanged` so a change is
 * announced), `elicitation` (form mode; a server's question goes to `elicit`, and without one, or off a
 * terminal, it is declined: the server sees `action: "decline"` at once, never a hang), and `sampling`
 * only for a server the user config lets ask (`sampling: true`) and only when the session can run it.
 */
import { pathToFileURL } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "./types.ts";

/** How a session answers what servers ask of the client. */
export interface McpClientHandlers {
  /** The workspace roots (absolute folder paths). */
  roots: () => readonly string[];
  /** Puts a server's form to the user; absent: every elicitation is declined. */
  elicit?: (server: string, params: ElicitRequest["params"], signal: AbortSignal) => Promise<ElicitResult>;
  /** Runs a server's sampling request (the `fast` tier, approved like a tool call); absent: not offered. */
  sample?: (
    server: string,
    params: CreateMessageRequest["params"],
    signal: AbortSignal,
  ) => Promise<CreateMessageResult>;
}

/** What `initialize` announces for a server with `config`. */
export function clientCapabilities(config: McpServerConfig, handlers: McpClientHandlers): ClientCapabilities {
  return {
    roots: { listChanged: true },
    // Form mode only (URL mode opens pages for the user: not offered). `applyDefaults`: the SDK fills a
    // form's schema defaults into an accepted answer (client/index.js applyElicitationDefaults).
    elicitation: { form: { applyDefaults: true } },
    ...(config.sampling === true && handlers.sample ? { sampling: {} } : {}),
  };
}

/** Registers the handlers for `roots/list`, `elicitation/create` and (when offered) `sampling/createMessage`. */
export function registerClientHandlers(
  client: Client,
  server: string,
  config: McpServerConfig,
  handlers: McpClientHandlers,
): void {
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: rootsOf(handlers.roots()) }));
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    handlers.elicit ? handlers.elicit(server, request.params, extra.signal) : Promise.resolve(DECLINE),
  );
  const sample = handlers.sample;
  if (config.sampling === true && sample) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      sample(server, request.params, extra.signal),
    );
  }
}

/** The answer a server gets when nobody can fill its form. */
export const DECLINE: ElicitResult = { action: "decline" };

/** Roots as the spec shapes them: `file://` URIs, named by their folder. */
export function rootsOf(paths: readonly string[]): { uri: string; name: string }[] {
  return paths.map((path) => ({
    uri: pathToFileURL(path).href,
    name: path.split("/").filter(Boolean).at(-1) ?? path,
  }));
}
