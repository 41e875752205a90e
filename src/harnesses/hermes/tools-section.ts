import { chatTool } from "../../providers/chat-wire.js";
import type { Tool } from "../../tools/types.js";
import { toolSpecs } from "../shared/tool-specs.js";

/**
 * The `# Tools` section the Hermes / Qwen2.5 / Qwen3 chat templates append to the system
 * message when a request carries tools (Qwen2.5-Instruct `tokenizer_config.json`
 * `chat_template`; NousResearch Hermes-2-Pro function-calling format). Models fine-tuned on
 * these templates have seen these exact sentences and tags around every tool list, so they
 * are reproduced as the template renders them, one `tojson` tool per line.
 */
export function toolsSection(tools: Tool[]): string {
  // The chat templates print each tool as Chat Completions JSON, so the prompt does too.
  const lines = toolSpecs(tools).map((tool) => pyJson(chatTool(tool)));
  return [
    "# Tools",
    "",
    "You may call one or more functions to assist with the user query.",
    "",
    "You are provided with function signatures within <tools></tools> XML tags:",
    "<tools>",
    ...lines,
    "</tools>",
    "",
    "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:",
    "<tool_call>",
    '{"name": <function-name>, "arguments": <args-json-object>}',
    "</tool_call>",
  ].join("\n");
}

/** One call in the template's own notation (how the chat template renders an assistant tool call). */
export function toolCallText(name: string, args: unknown): string {
  return `<tool_call>\n${pyJson({ name, arguments: args })}\n</tool_call>`;
}

/**
 * JSON as the chat templates' `tojson` filter writes it (Python `json.dumps` with
 * `ensure_ascii=False`): `", "` between items and `": "` after keys, keys in insertion order.
 */
export function pyJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(pyJson).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pyJson(v)}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}
