import type { ParsedReply } from "../types.js";
import { parseLenientJson } from "./lenient-json.js";

/** JSON schemas by tool name, to type Qwen3-Coder XML parameter values (all text in the XML). */
export type ParameterSchemas = Record<string, { properties?: Record<string, { type?: unknown }> }>;

interface Found {
  calls: Array<{ name: string; args: Record<string, unknown> }>;
  problems: string[];
}

const TOOL_CALL = /<tool_call>([\s\S]*?)<\/tool_call>|<tool_call>([\s\S]*)$/g;
const FUNCTION = /<function=([^>\n]*)>([\s\S]*?)(?:<\/function>|(?=<function=)|$)/g;
const PARAMETER = /<parameter=([^>\n]*)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|(?=<\/function>)|$)/g;
const JSON_FENCE = /```(?:json|tool_call)?[ \t]*\n([\s\S]*?)\n?```/g;

/**
 * Reads tool calls written as text, in the formats open models emit when no server-side parser
 * turns them into `tool_calls` (vLLM parser names in brackets):
 * 1. Hermes / Qwen2.5 JSON, `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`, any
 *    number of blocks, the last one possibly unclosed [`hermes`];
 * 2. Qwen3-Coder XML, `<tool_call><function=NAME><parameter=KEY>value</parameter></function>
 *    </tool_call>`, also without the outer tags [`qwen3_coder`];
 * 3. last resort, fenced ```json blocks holding `{"name", "arguments"}` objects.
 * A block that cannot be read is reported in `formatError`, but only when no call was found at
 * all: valid calls run and malformed neighbours are dropped. No block at all is a final answer.
 */
export function parseToolCalls(
  text: string,
  options: { newId(): string; schemas: ParameterSchemas },
): ParsedReply {
  const visible = stripThinking(text);
  let found = taggedCalls(visible, options.schemas);
  if (found.calls.length === 0 && found.problems.length === 0 && visible.includes("<function=")) {
    found = xmlCalls(visible, options.schemas);
  }
  if (found.calls.length === 0 && found.problems.length === 0) found = fencedCalls(visible);
  const calls = found.calls.map((call) => ({
    id: options.newId(),
    name: call.name,
    arguments: JSON.stringify(call.args),
  }));
  if (calls.length > 0 || found.problems.length === 0) return { calls };
  return { calls, formatError: formatErrorText(found.problems) };
}

/** Tool calls inside reasoning are thoughts, not actions. */
function stripThinking(text: string): string {
  const closed = text.replace(/<think>[\s\S]*?<\/think>/g, "");
  const end = closed.indexOf("</think>");
  return end === -1 ? closed : closed.slice(end + "</think>".length);
}

function taggedCalls(text: string, schemas: ParameterSchemas): Found {
  const found: Found = { calls: [], problems: [] };
  let index = 0;
  for (const match of text.matchAll(TOOL_CALL)) {
    index++;
    const body = (match[1] ?? match[2] ?? "").trim();
    const part = body.includes("<function=") ? xmlCalls(body, schemas) : jsonCalls(unfence(body));
    found.calls.push(...part.calls);
    found.problems.push(...part.problems.map((p) => `<tool_call> block ${index}: ${p}`));
  }
  return found;
}

function jsonCalls(body: string): Found {
  if (body === "") return { calls: [], problems: ["the block is empty"] };
  const parsed = parseLenientJson(body);
  if (!parsed.ok) return { calls: [], problems: [`its content is not valid JSON (${parsed.error})`] };
  const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  const found: Found = { calls: [], problems: [] };
  for (const item of items) {
    const call = asCall(item);
    if (typeof call === "string") found.problems.push(call);
    else found.calls.push(call);
  }
  return found;
}

/** `{"name", "arguments"}` (also `parameters`, as Llama models write it), arguments as an object or JSON text. */
function asCall(item: unknown): { name: string; args: Record<string, unknown> } | string {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return 'expected a JSON object {"name": ..., "arguments": {...}}';
  }
  const record = item as Record<string, unknown>;
  const fn = typeof record.function === "object" && record.function !== null ? record.function : record;
  const { name, arguments: args, parameters } = fn as Record<string, unknown>;
  if (typeof name !== "string" || name.trim() === "") return 'the object has no "name" string';
  let value: unknown = args ?? parameters ?? {};
  if (typeof value === "string") {
    const parsed = parseLenientJson(value);
    if (!parsed.ok) return `the "arguments" of ${name} are not valid JSON (${parsed.error})`;
    value = parsed.value;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `the "arguments" of ${name} must be a JSON object`;
  }
  return { name: toolName(name), args: value as Record<string, unknown> };
}

function xmlCalls(text: string, schemas: ParameterSchemas): Found {
  const found: Found = { calls: [], problems: [] };
  for (const match of text.matchAll(FUNCTION)) {
    const name = toolName(match[1] ?? "");
    if (!name) {
      found.problems.push("a <function=...> tag has no function name");
      continue;
    }
    const properties = schemas[name]?.properties ?? {};
    const args: Record<string, unknown> = {};
    for (const param of (match[2] ?? "").matchAll(PARAMETER)) {
      const key = (param[1] ?? "").trim();
      // The value is everything between the tags, minus one newline on each side (vLLM's rule).
      const raw = (param[2] ?? "").replace(/^\n/, "").replace(/\n$/, "");
      args[key] = typed(raw, properties[key]?.type);
    }
    found.calls.push({ name, args });
  }
  if (found.calls.length === 0 && found.problems.length === 0) {
    found.problems.push("no <function=NAME> element inside");
  }
  return found;
}

function typed(raw: string, type: unknown): unknown {
  const text = raw.trim();
  if (type === "number" || type === "integer") {
    const n = Number(text);
    return text !== "" && Number.isFinite(n) ? n : raw;
  }
  if (type === "boolean")
    return text.toLowerCase() === "true" ? true : text.toLowerCase() === "false" ? false : raw;
  if (type === "object" || type === "array") {
    const parsed = parseLenientJson(text);
    return parsed.ok ? parsed.value : raw;
  }
  return raw;
}

function fencedCalls(text: string): Found {
  const found: Found = { calls: [], problems: [] };
  for (const match of text.matchAll(JSON_FENCE)) {
    const parsed = parseLenientJson((match[1] ?? "").trim());
    if (!parsed.ok) continue;
    for (const item of Array.isArray(parsed.value) ? parsed.value : [parsed.value]) {
      const call = asCall(item);
      // A JSON example in a plain answer is not a call: only objects shaped like calls count.
      if (typeof call !== "string" && typeof item === "object" && item !== null && hasArguments(item)) {
        found.calls.push(call);
      }
    }
  }
  return found;
}

function hasArguments(item: object): boolean {
  const record = (("function" in item ? item.function : item) ?? {}) as Record<string, unknown>;
  return "arguments" in record || "parameters" in record;
}

function unfence(body: string): string {
  const fenced = /^```[a-z_]*[ \t]*\n([\s\S]*?)\n?```$/.exec(body);
  return fenced ? (fenced[1] ?? "").trim() : body;
}

function toolName(name: string): string {
  return name.trim().replace(/^functions\./, "");
}

export function formatErrorText(problems: string[]): string {
  return [
    "Your last reply could not be read as a function call, so nothing was run:",
    ...problems.map((problem) => `- ${problem}`),
    "",
    "Write each call as one JSON object inside <tool_call></tool_call> tags, for example:",
    "<tool_call>",
    '{"name": "shell_command", "arguments": {"command": "ls"}}',
    "</tool_call>",
    "If you are done, answer in plain text without any <tool_call> tags.",
  ].join("\n");
}
