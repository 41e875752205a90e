import type { ToolCallDelta } from "./assemble-tool-calls.js";
import { number, record, string } from "./loose-json.js";
import type { Usage } from "./types.js";

/** What one streamed chunk contributes. */
export interface ChunkParts {
  text: string;
  reasoning: string;
  toolCalls: ToolCallDelta[];
  finishReason?: string;
  usage?: Usage;
}

/**
 * Reads one `chat.completion.chunk` leniently. This is deliberately not a zod schema: servers
 * send wrong types in fields we do not need (null ids, string indexes, extra choices), and one odd
 * field must not fail a whole answer. Only choice 0 is read; we never ask for `n > 1`.
 */
export function readChunk(chunk: unknown): ChunkParts {
  const root = record(chunk);
  const choices = Array.isArray(root.choices) ? root.choices.map(record) : [];
  const choice = choices.find((c) => c.index === 0 || c.index === undefined) ?? {};
  const delta = record(choice.delta);
  const content = readContent(delta.content);
  // vLLM sent both field names with the same text during its rename; prefer one, never both.
  const reasoning = string(delta.reasoning_content) || string(delta.reasoning);
  const parts: ChunkParts = {
    text: content.text,
    reasoning: reasoning + content.reasoning,
    toolCalls: Array.isArray(delta.tool_calls) ? delta.tool_calls.map(readToolCallDelta) : [],
  };
  if (typeof choice.finish_reason === "string" && choice.finish_reason)
    parts.finishReason = choice.finish_reason;
  const usage = readUsage(root.usage ?? choice.usage);
  if (usage) parts.usage = usage;
  return parts;
}

/** `content` is a string, or an array of parts (Mistral sends `thinking` parts there). */
function readContent(content: unknown): { text: string; reasoning: string } {
  if (typeof content === "string") return { text: content, reasoning: "" };
  if (!Array.isArray(content)) return { text: "", reasoning: "" };
  let text = "";
  let reasoning = "";
  for (const part of content.map(record)) {
    if (part.type === "thinking" || part.type === "reasoning")
      reasoning += partText(part.thinking ?? part.text);
    else if (part.type === "text" || part.type === undefined) text += partText(part.text);
  }
  return { text, reasoning };
}

function partText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map((item) => partText(record(item).text)).join("");
  return "";
}

function readToolCallDelta(value: unknown): ToolCallDelta {
  const entry = record(value);
  const fn = record(entry.function);
  const index = typeof entry.index === "number" ? entry.index : Number.parseInt(string(entry.index), 10);
  const delta: ToolCallDelta = {};
  if (Number.isInteger(index)) delta.index = index;
  if (string(entry.id)) delta.id = string(entry.id);
  if (string(fn.name)) delta.name = string(fn.name);
  // A few servers send arguments as an object instead of JSON text.
  if (typeof fn.arguments === "string") delta.arguments = fn.arguments;
  else if (fn.arguments && typeof fn.arguments === "object") delta.arguments = JSON.stringify(fn.arguments);
  return delta;
}

function readUsage(value: unknown): Usage | undefined {
  const usage = record(value);
  if (typeof usage.prompt_tokens !== "number" && typeof usage.completion_tokens !== "number")
    return undefined;
  const out: Usage = {
    inputTokens: number(usage.prompt_tokens),
    outputTokens: number(usage.completion_tokens),
  };
  const cached = record(usage.prompt_tokens_details).cached_tokens;
  const reasoning = record(usage.completion_tokens_details).reasoning_tokens;
  if (typeof cached === "number") out.cachedInputTokens = cached;
  if (typeof reasoning === "number") out.reasoningTokens = reasoning;
  return out;
}
