import type { FunctionTool } from "../../providers/model-request.js";
import type { Tool } from "../../tools/types.js";

/**
 * Tools as function tools, the JSON schema unchanged: the one conversion every harness uses.
 * `strict: false` is sent where the original sends it (Codex and pi say so explicitly; the
 * others leave it out).
 */
export function toolSpecs(tools: readonly Tool[], options: { strict?: false } = {}): FunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(options.strict === false ? { strict: false } : {}),
  }));
}
