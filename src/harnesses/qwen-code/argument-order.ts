import type { Message } from "../../providers/model-request.js";

/** The key order Qwen Code's models were trained to see (OI `harness/qwen_code.rs::ordered_qwen_arguments`). */
const KEY_ORDER: Record<string, string[]> = {
  read_file: ["file_path", "offset", "limit", "pages"],
  edit: ["file_path", "old_string", "new_string", "replace_all"],
  run_shell_command: ["command", "description", "directory", "is_background", "timeout"],
};

/**
 * Replayed tool-call arguments as OI's qwen-code builder re-serializes them: compact JSON, and for
 * `read_file`, `edit` and `run_shell_command` only the known keys, in Qwen's order. Arguments
 * that are not valid JSON are left as the model sent them.
 */
export function qwenArguments(name: string, text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  const order = KEY_ORDER[name];
  if (!order || typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return JSON.stringify(parsed);
  }
  const args = parsed as Record<string, unknown>;
  const parts = order
    .filter((key) => key in args)
    .map((key) => `${JSON.stringify(key)}:${JSON.stringify(args[key])}`);
  return `{${parts.join(",")}}`;
}

/**
 * An assistant turn as Qwen Code replays it: reasoning loses trailing newlines and tool-call
 * arguments are re-serialized. A turn with calls and no text keeps no text part, so Chat sends
 * `content: null` as 0.24.4 does.
 */
export function normalizeQwenMessage(message: Message): Message {
  if (message.role !== "assistant") return message;
  const content = message.content.map((part) => {
    if (part.type === "reasoning") return { ...part, text: part.text.replace(/\n+$/, "") };
    if (part.type === "tool_call") return { ...part, arguments: qwenArguments(part.name, part.arguments) };
    return part;
  });
  return { role: "assistant", content };
}
