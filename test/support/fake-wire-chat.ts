import { randomUUID } from "node:crypto";
import type { ChatBody, ReplyStep } from "./fake-model.js";
import type { FakeWire, FakeWireOptions } from "./fake-wire.js";
import { checkFields, isRecord, split, typeProblem } from "./fake-wire-checks.js";

/** Top-level fields of OpenAI's Chat Completions request, with the type each must have. */
const OPENAI_FIELDS: Record<string, string> = {
  model: "string",
  messages: "array",
  tools: "array",
  tool_choice: "string|object",
  parallel_tool_calls: "boolean",
  stream: "boolean",
  stream_options: "object",
  max_tokens: "number",
  max_completion_tokens: "number",
  temperature: "number",
  top_p: "number",
  n: "number",
  stop: "string|array",
  seed: "number",
  presence_penalty: "number",
  frequency_penalty: "number",
  logit_bias: "object",
  logprobs: "boolean",
  top_logprobs: "number",
  user: "string",
  response_format: "object",
  reasoning_effort: "string",
  prompt_cache_key: "string",
  store: "boolean",
  metadata: "object",
  service_tier: "string",
  verbosity: "string",
};

/** Fields other servers take (vLLM, llama.cpp, Qwen, Kimi, DeepSeek, OpenRouter); OpenAI rejects them. */
const VENDOR_FIELDS: Record<string, string> = {
  enable_thinking: "boolean",
  thinking: "object",
  chat_template_kwargs: "object",
  top_k: "number",
  min_p: "number",
  repetition_penalty: "number",
  reasoning: "object",
};

const MESSAGE_FIELDS: Record<string, readonly string[]> = {
  system: ["role", "content", "name"],
  developer: ["role", "content", "name"],
  user: ["role", "content", "name"],
  assistant: ["role", "content", "name", "tool_calls", "refusal", "reasoning_content"],
  tool: ["role", "content", "tool_call_id"],
};

/** Chat Completions as OpenAI documents it; servers that take more are `VENDOR_FIELDS`. */
export const chatWire: FakeWire = {
  wire: "chat",
  path: "/v1/chat/completions",
  validate: (body, options) => validateChat(body, options ?? {}),
  events: (step, body, nextId) => replyChunks(step, body, nextId).map((data) => ({ data })),
};

function validateChat(body: ChatBody, options: FakeWireOptions): string[] {
  const problems: string[] = [];
  const fields = options.strictOpenAI ? OPENAI_FIELDS : { ...OPENAI_FIELDS, ...VENDOR_FIELDS };
  problems.push(...checkFields("body", body, fields));
  if (body.stream_options !== undefined && body.stream !== true)
    problems.push("stream_options is only allowed with stream: true");
  if (isRecord(body.stream_options))
    problems.push(...checkFields("stream_options", body.stream_options, { include_usage: "boolean" }));
  for (const [i, tool] of (Array.isArray(body.tools) ? body.tools : []).entries())
    problems.push(...toolProblems(tool, i));
  if (Array.isArray(body.messages)) problems.push(...messageProblems(body.messages, options));
  return problems;
}

function toolProblems(tool: unknown, i: number): string[] {
  const at = `tools[${i}]`;
  if (!isRecord(tool) || tool.type !== "function") return [`${at} must be {type: "function", function}`];
  const problems = checkFields(at, tool, { type: "string", function: "object" });
  if (isRecord(tool.function)) {
    problems.push(
      ...checkFields(`${at}.function`, tool.function, {
        name: "string",
        description: "string",
        parameters: "object",
        strict: "boolean",
      }),
    );
    if (typeof tool.function.name !== "string") problems.push(`${at}.function.name is missing`);
  }
  return problems;
}

function messageProblems(messages: unknown[], options: FakeWireOptions): string[] {
  const problems: string[] = [];
  /** Call ids of the last assistant message still waiting for their tool message. */
  let open = new Set<string>();
  for (const [i, message] of messages.entries()) {
    const at = `messages[${i}]`;
    if (!isRecord(message) || typeof message.role !== "string" || !MESSAGE_FIELDS[message.role]) {
      problems.push(`${at} has no known role`);
      continue;
    }
    const { role } = message;
    for (const key of Object.keys(message))
      if (!MESSAGE_FIELDS[role]!.includes(key)) problems.push(`${at} (${role}) has unknown field ${key}`);
    if (role !== "tool" && open.size > 0) {
      problems.push(`${at} (${role}) comes before the tool answers of ${[...open].join(", ")}`);
      open = new Set();
    }
    if (role === "tool") {
      const id = message.tool_call_id;
      if (typeof id !== "string" || !open.delete(id))
        problems.push(`${at} answers no open tool call (${String(id)})`);
      if (typeof message.content !== "string" && !Array.isArray(message.content))
        problems.push(`${at}.content must be a string or parts`);
      if (Array.isArray(message.content))
        for (const [j, part] of message.content.entries())
          problems.push(...toolPartProblems(part, `${at}.content[${j}]`, options));
    } else if (role === "assistant") {
      if (options.strictOpenAI && "reasoning_content" in message)
        problems.push(`${at} has reasoning_content, which OpenAI rejects`);
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      if (message.tool_calls !== undefined && calls.length === 0)
        problems.push(`${at}.tool_calls must be a non-empty array`);
      if (message.content === null && calls.length === 0)
        problems.push(`${at} has neither content nor tool_calls`);
      for (const [j, call] of calls.entries()) {
        const where = `${at}.tool_calls[${j}]`;
        if (
          !isRecord(call) ||
          typeof call.id !== "string" ||
          call.type !== "function" ||
          !isRecord(call.function)
        ) {
          problems.push(`${where} must be {id, type: "function", function}`);
          continue;
        }
        problems.push(...checkFields(where, call, { id: "string", type: "string", function: "object" }));
        problems.push(
          ...checkFields(`${where}.function`, call.function, { name: "string", arguments: "string" }),
        );
        open.add(call.id);
      }
    } else {
      const problem = typeProblem(message.content, "string|array");
      if (problem) problems.push(`${at}.content ${problem}`);
      if (Array.isArray(message.content))
        for (const [j, part] of message.content.entries())
          problems.push(...partProblems(part, `${at}.content[${j}]`, role));
    }
  }
  if (open.size > 0) problems.push(`the request ends before the tool answers of ${[...open].join(", ")}`);
  return problems;
}

function partProblems(part: unknown, at: string, role: string): string[] {
  if (!isRecord(part)) return [`${at} is not an object`];
  if (part.type === "text") return checkFields(at, part, { type: "string", text: "string" });
  if (part.type === "image_url" && role === "user") {
    const problems = checkFields(at, part, { type: "string", image_url: "object" });
    if (isRecord(part.image_url))
      problems.push(...checkFields(`${at}.image_url`, part.image_url, { url: "string", detail: "string" }));
    return problems;
  }
  return [`${at} has type ${String(part.type)}, not allowed in a ${role} message`];
}

/** OpenAI's tool messages hold text parts only; Kimi's API also reads images there. */
function toolPartProblems(part: unknown, at: string, options: FakeWireOptions): string[] {
  if (isRecord(part) && part.type === "image_url" && !options.strictOpenAI)
    return partProblems(part, at, "user");
  if (isRecord(part) && part.type === "text") return partProblems(part, at, "tool");
  return [`${at} has type ${String(isRecord(part) ? part.type : part)}, not allowed in a tool message`];
}

/** The SSE data payloads for a reply step, `[DONE]` included. */
export function replyChunks(step: ReplyStep, body: ChatBody, nextId: () => string): string[] {
  const size = Math.max(1, step.chunkSize ?? 16);
  const id = `chatcmpl-${randomUUID()}`;
  const model = typeof body.model === "string" ? body.model : "fake-model";
  const chunk = (delta: object, finishReason: string | null = null) =>
    JSON.stringify({
      id,
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });

  const out = [chunk({ role: "assistant", content: "" })];
  for (const piece of split(step.reasoning ?? "", size)) {
    out.push(chunk({ [step.reasoningField ?? "reasoning_content"]: piece }));
  }
  for (const piece of split(step.text ?? "", size)) out.push(chunk({ content: piece }));
  for (const [index, call] of (step.toolCalls ?? []).entries()) {
    const args = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    out.push(
      chunk({
        tool_calls: [
          { index, id: call.id ?? nextId(), type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of split(args, size)) {
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  const calls = step.toolCalls?.length ?? 0;
  out.push(chunk({}, step.finishReason ?? (calls > 0 ? "tool_calls" : "stop")));
  if (body.stream_options?.include_usage === true && step.usage !== false) {
    const usage = step.usage ?? {};
    const prompt = usage.prompt_tokens ?? 12;
    const completion = usage.completion_tokens ?? 7;
    out.push(
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model,
        choices: [],
        usage: {
          prompt_tokens: prompt,
          completion_tokens: completion,
          total_tokens: prompt + completion,
          prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
          completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
        },
      }),
    );
  }
  out.push("[DONE]");
  return out;
}
