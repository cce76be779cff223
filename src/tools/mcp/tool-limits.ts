/**
 * What one MCP server may put in front of the model: only the tools config lets through (`tools:`,
 * `exclude_tools:`), each description cut to `max_description_chars`, and the definitions as a whole
 * within `max_tools_bytes` (later tools dropped). Definitions go into every request, so a server with a
 * 1 MB description or hundreds of tools would otherwise cost every turn; each cut or drop is a warning
 * naming the server and the tool.
 */

import { wholeCharEnd } from "../truncate.ts";
import type { McpToolInfo } from "./connection.ts";
import { DEFAULT_TOOL_LIMITS, type McpToolLimits } from "./types.ts";

/** The tools the model is offered, and a warning for each thing config or a cap took away. */
export interface LimitedTools {
  tools: McpToolInfo[];
  warnings: string[];
}

/** The note a cut description ends with, so the model knows there was more. */
export const TRUNCATED_NOTE = "… [description truncated]";

/** Applies `limits` (defaults where absent) to `tools` of `server`, in the server's order. */
export function limitTools(
  server: string,
  tools: readonly McpToolInfo[],
  limits: Partial<McpToolLimits> = {},
): LimitedTools {
  const { maxDescriptionChars, maxToolsBytes, only, exclude } = { ...DEFAULT_TOOL_LIMITS, ...limits };
  const warnings: string[] = [];
  const names = new Set(tools.map((t) => t.name));
  for (const name of [...(only ?? []), ...(exclude ?? [])]) {
    if (!names.has(name)) warnings.push(`MCP server ${server} has no tool ${name} (named in its config)`);
  }
  const kept: McpToolInfo[] = [];
  const dropped: string[] = [];
  let bytes = 0;
  for (const tool of tools) {
    if (only !== undefined && !only.includes(tool.name)) continue;
    if (exclude?.includes(tool.name)) continue;
    const capped = capDescription(tool, maxDescriptionChars);
    if (capped !== tool) {
      warnings.push(
        `MCP server ${server}: tool ${tool.name}'s description is ${tool.description?.length} characters; ` +
          `cut to ${maxDescriptionChars} (max_description_chars)`,
      );
    }
    const size = definitionBytes(capped);
    if (bytes + size > maxToolsBytes) {
      dropped.push(tool.name);
      continue;
    }
    bytes += size;
    kept.push(capped);
  }
  if (dropped.length > 0) {
    warnings.push(
      `MCP server ${server}: ${dropped.length === 1 ? "tool" : `${dropped.length} tools`} dropped, ` +
        `past max_tools_bytes (${maxToolsBytes} bytes of tool definitions): ${dropped.join(", ")}`,
    );
  }
  return { tools: kept, warnings };
}

/** Server instructions (InitializeResult.instructions) cut as a description is. */
export function capInstructions(text: string, max = DEFAULT_TOOL_LIMITS.maxDescriptionChars): string {
  return text.length > max ? `${text.slice(0, wholeCharEnd(text, max))}${TRUNCATED_NOTE}` : text;
}

function capDescription(tool: McpToolInfo, max: number): McpToolInfo {
  const description = tool.description;
  if (description === undefined || description.length <= max) return tool;
  return { ...tool, description: `${description.slice(0, wholeCharEnd(description, max))}${TRUNCATED_NOTE}` };
}

/** What the definition costs in a request: its name, description and input schema as JSON. */
function definitionBytes(tool: McpToolInfo): number {
  const { name, description, inputSchema } = tool;
  return Buffer.byteLength(JSON.stringify({ name, description, inputSchema }), "utf8");
}
