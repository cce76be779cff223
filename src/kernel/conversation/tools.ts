import type { ImagePart } from "./messages.ts";

/** JSON Schema for a tool's parameters (an object schema). */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  additionalProperties?: boolean | JsonSchema;
  [key: string]: unknown;
}

/** What the model is offered: a name, a description and a parameter schema. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** The outcome of running a tool: what the model sees and what the user sees. */
export interface ToolOutput {
  /** Text returned to the model (truncated with a note past the limit, secrets redacted). */
  modelText: string;
  /** Text shown to the user: a diff for edits, a one-line summary otherwise. */
  display: string;
  isError: boolean;
  /** The one-line summary progress lines show (default: the first line of modelText). */
  summary?: string;
  /** The last lines of a command's output, shown under its summary (exec). */
  tail?: string[];
  /** Images for the model, after `modelText` (an MCP tool's image content). */
  images?: ImagePart[];
}

/** A running tool's progress, as the tool reports it (an MCP server's notifications/progress). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}
