import { createHash, randomUUID } from "node:crypto";
import type { ChatBody, ReplyStep } from "./fake-model.js";
import type { FakeWire } from "./fake-wire.js";

/**
 * Anthropic Messages for the fake model: strict about the request as the API is (fields, block
 * placement, the tool_use / tool_result pairing, signed thinking, cache_control), and streaming
 * a reply step as the API's named SSE events.
 */
export const messagesWire: FakeWire = {
  wire: "messages",
  path: "/v1/messages",
  validate: validateMessagesBody,
  events: messagesEvents,
};

const TOP_LEVEL = new Set([
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "stream",
  "thinking",
  "metadata",
  "output_config",
  "context_management",
  "service_tier",
  "cache_control",
]);
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
/** The API allows this many blocks marked with `cache_control` in one request. */
const MAX_CACHE_BREAKPOINTS = 4;

type Problems = string[];
// biome-ignore lint/suspicious/noExplicitAny: request JSON is checked field by field
type Json = any;

export function validateMessagesBody(body: ChatBody): string[] {
  const problems: Problems = [];
  const cache = { count: 0 };
  unknownKeys(body, TOP_LEVEL, "body", problems);
  if (typeof body.model !== "string" || body.model === "") problems.push("model: missing");
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    problems.push("max_tokens: missing or not a positive integer");
  if (body.temperature !== undefined && !(body.temperature >= 0 && body.temperature <= 1))
    problems.push("temperature: must be within 0..1");
  checkThinking(body, problems);
  if (body.metadata !== undefined) {
    unknownKeys(body.metadata, new Set(["user_id"]), "metadata", problems);
    if (body.metadata.user_id !== undefined && typeof body.metadata.user_id !== "string")
      problems.push("metadata.user_id: not a string");
  }
  if (body.system !== undefined && typeof body.system !== "string") {
    if (!Array.isArray(body.system)) problems.push("system: neither a string nor blocks");
    else
      body.system.forEach((block: Json, i: number) => {
        textBlock(block, `system[${i}]`, problems, cache);
      });
  }
  for (const [i, tool] of (Array.isArray(body.tools) ? body.tools : []).entries())
    checkTool(tool, i, problems, cache);
  if (body.tools !== undefined && !Array.isArray(body.tools)) problems.push("tools: not an array");
  checkMessages(body.messages, problems, cache);
  if (cache.count > MAX_CACHE_BREAKPOINTS)
    problems.push(`cache_control: ${cache.count} breakpoints, at most ${MAX_CACHE_BREAKPOINTS} allowed`);
  return problems;
}

function checkThinking(body: ChatBody, problems: Problems): void {
  const thinking = body.thinking;
  if (thinking === undefined) return;
  if (thinking?.type === "enabled") {
    unknownKeys(thinking, new Set(["type", "budget_tokens", "display"]), "thinking", problems);
    const budget = thinking.budget_tokens;
    if (!Number.isInteger(budget) || budget < 1024)
      problems.push("thinking.budget_tokens: must be an integer >= 1024");
    else if (budget >= body.max_tokens) problems.push("thinking.budget_tokens: must be less than max_tokens");
    if (body.temperature !== undefined && body.temperature !== 1)
      problems.push("temperature: only 1 is allowed with thinking");
    if (body.top_p !== undefined && body.top_p < 0.95) problems.push("top_p: below 0.95 with thinking");
  } else if (thinking?.type !== "disabled" && thinking?.type !== "adaptive") {
    problems.push(`thinking.type: unknown ${JSON.stringify(thinking?.type)}`);
  }
}

function checkTool(tool: Json, i: number, problems: Problems, cache: { count: number }): void {
  const where = `tools[${i}]`;
  unknownKeys(
    tool,
    new Set(["name", "description", "input_schema", "cache_control", "strict", "type"]),
    where,
    problems,
  );
  if (typeof tool?.name !== "string" || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name))
    problems.push(`${where}.name: invalid`);
  if (tool?.description !== undefined && typeof tool.description !== "string")
    problems.push(`${where}.description: not a string`);
  if (tool?.input_schema?.type !== "object") problems.push(`${where}.input_schema: must be an object schema`);
  cacheControl(tool, where, problems, cache);
}

function checkMessages(messages: Json, problems: Problems, cache: { count: number }): void {
  if (!Array.isArray(messages) || messages.length === 0) {
    problems.push("messages: missing or empty");
    return;
  }
  let pending: string[] = [];
  messages.forEach((message: Json, i: number) => {
    const where = `messages[${i}]`;
    unknownKeys(message, new Set(["role", "content"]), where, problems);
    if (message?.role !== "user" && message?.role !== "assistant")
      problems.push(`${where}.role: ${message?.role}`);
    if (i === 0 && message?.role !== "user")
      problems.push(`${where}: the first message must be a user message`);
    if (i > 0 && messages[i - 1]?.role === message?.role)
      problems.push(`${where}: two ${message?.role} messages in a row`);
    const blocks: Json[] =
      typeof message?.content === "string" ? [{ type: "text", text: message.content }] : message?.content;
    if (!Array.isArray(blocks) || blocks.length === 0) {
      problems.push(`${where}.content: missing or empty`);
      return;
    }
    if (message.role === "user") {
      const answered = blocks
        .filter((block) => block?.type === "tool_result")
        .map((block) => block.tool_use_id);
      const firstOther = blocks.findIndex((block) => block?.type !== "tool_result");
      const lastResult = blocks.map((block) => block?.type).lastIndexOf("tool_result");
      if (firstOther !== -1 && lastResult > firstOther)
        problems.push(`${where}: tool_result after other content`);
      for (const id of pending)
        if (!answered.includes(id)) problems.push(`${where}: tool_use ${id} has no tool_result`);
      for (const id of answered)
        if (!pending.includes(id)) problems.push(`${where}: tool_result for unknown tool_use ${id}`);
      pending = [];
      blocks.forEach((block, j) => {
        userBlock(block, `${where}.content[${j}]`, problems, cache);
      });
    } else if (message.role === "assistant") {
      for (const id of pending) problems.push(`${where}: tool_use ${id} has no tool_result before it`);
      pending = [];
      let seenOther = false;
      blocks.forEach((block, j) => {
        const at = `${where}.content[${j}]`;
        if (block?.type === "thinking" || block?.type === "redacted_thinking") {
          if (seenOther) problems.push(`${at}: thinking after text or tool_use`);
        } else seenOther = true;
        if (block?.type === "tool_use") pending.push(block.id);
        assistantBlock(block, at, problems, cache);
      });
    }
  });
  if (pending.length > 0)
    problems.push(`messages: the last message has unanswered tool_use ${pending.join(", ")}`);
}

function userBlock(block: Json, where: string, problems: Problems, cache: { count: number }): void {
  if (block?.type === "text") textBlock(block, where, problems, cache);
  else if (block?.type === "image") imageBlock(block, where, problems, cache);
  else if (block?.type !== "tool_result") problems.push(`${where}: ${block?.type} is not a user block`);
  if (block?.type !== "tool_result") return;
  unknownKeys(
    block,
    new Set(["type", "tool_use_id", "content", "is_error", "cache_control"]),
    where,
    problems,
  );
  if (typeof block.tool_use_id !== "string") problems.push(`${where}.tool_use_id: missing`);
  if (block.is_error !== undefined && typeof block.is_error !== "boolean")
    problems.push(`${where}.is_error: not a boolean`);
  cacheControl(block, where, problems, cache);
  if (block.content === undefined || typeof block.content === "string") return;
  if (!Array.isArray(block.content)) problems.push(`${where}.content: neither a string nor blocks`);
  else
    block.content.forEach((inner: Json, k: number) => {
      const at = `${where}.content[${k}]`;
      if (inner?.type === "text") textBlock(inner, at, problems, cache);
      else if (inner?.type === "image") imageBlock(inner, at, problems, cache);
      else problems.push(`${at}: ${inner?.type} is not allowed in a tool_result`);
    });
}

function assistantBlock(block: Json, where: string, problems: Problems, cache: { count: number }): void {
  switch (block?.type) {
    case "text":
      textBlock(block, where, problems, cache);
      return;
    case "thinking":
      unknownKeys(block, new Set(["type", "thinking", "signature"]), where, problems);
      if (typeof block.thinking !== "string") problems.push(`${where}.thinking: not a string`);
      if (typeof block.signature !== "string" || block.signature === "")
        problems.push(`${where}: thinking without a signature`);
      return;
    case "redacted_thinking":
      unknownKeys(block, new Set(["type", "data"]), where, problems);
      if (typeof block.data !== "string") problems.push(`${where}.data: not a string`);
      return;
    case "tool_use":
      unknownKeys(block, new Set(["type", "id", "name", "input", "cache_control"]), where, problems);
      if (typeof block.id !== "string" || typeof block.name !== "string")
        problems.push(`${where}: tool_use without id or name`);
      if (!block.input || typeof block.input !== "object" || Array.isArray(block.input))
        problems.push(`${where}.input: not an object`);
      cacheControl(block, where, problems, cache);
      return;
    default:
      problems.push(`${where}: ${block?.type} is not an assistant block`);
  }
}

function textBlock(block: Json, where: string, problems: Problems, cache: { count: number }): void {
  unknownKeys(block, new Set(["type", "text", "cache_control", "citations"]), where, problems);
  if (block?.type !== "text") problems.push(`${where}: not a text block`);
  if (typeof block?.text !== "string" || block.text === "") problems.push(`${where}.text: missing or empty`);
  cacheControl(block, where, problems, cache);
}

function imageBlock(block: Json, where: string, problems: Problems, cache: { count: number }): void {
  unknownKeys(block, new Set(["type", "source", "cache_control"]), where, problems);
  const source = block.source;
  if (source?.type === "base64") {
    unknownKeys(source, new Set(["type", "media_type", "data"]), `${where}.source`, problems);
    if (!IMAGE_TYPES.has(source.media_type))
      problems.push(`${where}.source.media_type: ${source.media_type}`);
    if (typeof source.data !== "string" || source.data === "" || source.data.startsWith("data:"))
      problems.push(`${where}.source.data: not bare base64`);
  } else if (source?.type === "url") {
    unknownKeys(source, new Set(["type", "url"]), `${where}.source`, problems);
    if (typeof source.url !== "string" || !/^https?:/.test(source.url))
      problems.push(`${where}.source.url: invalid`);
  } else {
    problems.push(`${where}.source: unknown type ${source?.type}`);
  }
  cacheControl(block, where, problems, cache);
}

function cacheControl(item: Json, where: string, problems: Problems, cache: { count: number }): void {
  const control = item?.cache_control;
  if (control === undefined) return;
  cache.count++;
  const keys = Object.keys(control ?? {});
  const ttlOk = control?.ttl === undefined || control.ttl === "5m" || control.ttl === "1h";
  if (control?.type !== "ephemeral" || !ttlOk || keys.some((key) => key !== "type" && key !== "ttl"))
    problems.push(`${where}.cache_control: ${JSON.stringify(control)} is not {"type":"ephemeral"}`);
}

function unknownKeys(value: Json, allowed: Set<string>, where: string, problems: Problems): void {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    problems.push(`${where}: not an object`);
    return;
  }
  for (const key of Object.keys(value))
    if (!allowed.has(key)) problems.push(`${where}: unknown field ${key}`);
}

/** Our finish reasons (what Chat steps script) in the API's words; others are sent as they are. */
const STOP_REASONS: Record<string, string> = {
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  content_filter: "refusal",
};

/** The signature the fake model gives a thinking text: stable, so a test can expect it back. */
export function fakeSignature(thinking: string): string {
  return `sig-${createHash("sha256").update(thinking).digest("hex").slice(0, 24)}`;
}

export function messagesEvents(step: ReplyStep, body: ChatBody, nextId: () => string) {
  const size = Math.max(1, step.chunkSize ?? 16);
  const out: Array<{ event: string; data: string }> = [];
  const send = (event: string, data: object) =>
    out.push({ event, data: JSON.stringify({ type: event, ...data }) });
  const usage = step.usage || {};
  const cached = usage.cached_tokens ?? 0;
  const written = usage.cache_write_tokens ?? 0;
  const prompt = usage.prompt_tokens ?? 12;
  const inputUsage = {
    input_tokens: Math.max(0, prompt - cached - written),
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: written,
  };
  send("message_start", {
    message: {
      id: `msg_fake_${randomUUID()}`,
      type: "message",
      role: "assistant",
      model: typeof body.model === "string" ? body.model : "fake-model",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: step.usage === false ? {} : { ...inputUsage, output_tokens: 1 },
    },
  });
  send("ping", {});
  let index = 0;
  const block = (start: object, deltas: object[]) => {
    send("content_block_start", { index, content_block: start });
    for (const delta of deltas) send("content_block_delta", { index, delta });
    send("content_block_stop", { index });
    index++;
  };
  if (step.reasoning) {
    block({ type: "thinking", thinking: "", signature: "" }, [
      ...split(step.reasoning, size).map((thinking) => ({ type: "thinking_delta", thinking })),
      { type: "signature_delta", signature: fakeSignature(step.reasoning) },
    ]);
  }
  if (step.text) {
    block(
      { type: "text", text: "" },
      split(step.text, size).map((text) => ({ type: "text_delta", text })),
    );
  }
  for (const call of step.toolCalls ?? []) {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    block(
      { type: "tool_use", id: call.id ?? nextId(), name: call.name, input: {} },
      split(args, size).map((partial_json) => ({ type: "input_json_delta", partial_json })),
    );
  }
  const finish = step.finishReason ?? ((step.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop");
  send("message_delta", {
    delta: { stop_reason: STOP_REASONS[finish] ?? finish, stop_sequence: null },
    usage: step.usage === false ? {} : { ...inputUsage, output_tokens: usage.completion_tokens ?? 7 },
  });
  send("message_stop", {});
  return out;
}

function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
