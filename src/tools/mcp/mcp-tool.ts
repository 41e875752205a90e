import { z } from "zod";
import type { Tool } from "../types.js";
import type { McpManager, McpToolInfo } from "./types.js";

/** Any object: the server validates its own arguments and answers with an `isError` result. */
const Args = z.looseObject({});
type Args = z.infer<typeof Args>;

/**
 * An MCP tool as a tool of ours. Calls go through the same permission gate as every other
 * tool: a tool the server annotates read-only needs no permission (kind `read`); any other is
 * an unconfined side effect (kind `other`, access `tool`) the gate asks about, keyed by its
 * model-visible name so an "always" answer covers exactly this tool.
 */
export function mcpTool(info: McpToolInfo, manager: McpManager): Tool<Args> {
  const label = `calling ${info.server}'s ${info.name} tool`;
  return {
    name: info.modelName,
    description: info.description || info.title || `${info.name} from the ${info.server} MCP server`,
    kind: info.readOnly ? "read" : "other",
    capability: "other",
    parameters: toolParameters(info.inputSchema),
    schema: Args,
    async preview() {
      return { title: `${info.server}: ${info.name}` };
    },
    access: () => (info.readOnly ? { type: "none" } : { type: "tool", key: info.modelName, label }),
    execute: (args, ctx) =>
      manager.call(info.modelName, args, { signal: ctx.signal, onProgress: ctx.onProgress }),
  };
}

/**
 * The server's input schema as chat-completions `parameters`: always an object schema with
 * `properties` (some OpenAI-compatible servers reject one without), without `$schema`.
 */
export function toolParameters(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = inputSchema;
  const properties =
    typeof rest.properties === "object" && rest.properties !== null && !Array.isArray(rest.properties)
      ? rest.properties
      : {};
  return { ...rest, type: "object", properties };
}
