import type { ChatTool } from "../../providers/types.js";
import type { Tool } from "../../tools/types.js";

/**
 * Tools as chat `function` tools, the JSON schema unchanged. `strict: false` is sent where the
 * original sends it (Codex and pi say so explicitly; the others leave it out).
 */
export function chatTools(tools: readonly Tool[], options: { strict?: false } = {}): ChatTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      ...(options.strict === false ? { strict: false } : {}),
    },
  }));
}
