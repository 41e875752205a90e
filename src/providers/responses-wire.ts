import type { AssistantPart, Message, ModelRequest, ToolSpec, UserPart } from "./model-request.js";
import { textOf } from "./model-request.js";

/** One Responses `input` item or tool, as much of it as we send. */
type Item = Record<string, unknown>;

export interface ResponsesWireOptions {
  model: string;
  /** The endpoint's configured reasoning; the request's knobs win. */
  reasoning?: { effort?: string; summary?: string };
}

/**
 * The request as an OpenAI Responses body, without the stream field the provider adds. Stateless
 * as Codex runs it: `store: false`, the whole history as `input`, reasoning carried back as its
 * encrypted items.
 */
export function responsesBody(request: ModelRequest, options: ResponsesWireOptions): Record<string, unknown> {
  const knobs = request.knobs ?? {};
  const reasoning = knobs.reasoning ?? options.reasoning;
  const effort = reasoning?.effort;
  const summary = reasoning?.summary;
  return {
    model: options.model,
    ...(request.system.length > 0 ? { instructions: textOf(request.system, "\n\n") } : {}),
    input: responsesInput(request),
    // Without tools the tool fields are left out: a request with none (doctor's plain probe) stays minimal.
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map(responsesTool),
          tool_choice: "auto",
          parallel_tool_calls: knobs.parallelToolCalls ?? true,
        }
      : {}),
    store: false,
    include: ["reasoning.encrypted_content"],
    ...(knobs.promptCacheKey !== undefined ? { prompt_cache_key: knobs.promptCacheKey } : {}),
    ...(effort !== undefined || summary !== undefined
      ? {
          reasoning: {
            ...(effort !== undefined ? { effort } : {}),
            ...(summary !== undefined ? { summary } : {}),
          },
        }
      : {}),
    ...(knobs.maxTokens !== undefined ? { max_output_tokens: knobs.maxTokens } : {}),
    ...(knobs.temperature !== undefined ? { temperature: knobs.temperature } : {}),
    ...(knobs.topP !== undefined ? { top_p: knobs.topP } : {}),
    ...knobs.extra?.responses,
  };
}

export function responsesInput(request: ModelRequest): Item[] {
  const custom = new Set(request.tools.filter((tool) => tool.type === "custom").map((tool) => tool.name));
  // A tool answer takes the kind of the call it answers.
  const customCalls = new Set<string>();
  const items: Item[] = [];
  for (const message of request.messages) {
    if (message.role === "assistant") items.push(...assistantItems(message.content, custom, customCalls));
    else items.push(otherItem(message, customCalls));
  }
  return items;
}

function otherItem(message: Exclude<Message, { role: "assistant" }>, customCalls: Set<string>): Item {
  switch (message.role) {
    case "developer":
      return { type: "message", role: "developer", content: message.content.map(inputPart) };
    case "user":
      return { type: "message", role: "user", content: message.content.map(inputPart) };
    case "tool": {
      const type = customCalls.has(message.callId) ? "custom_tool_call_output" : "function_call_output";
      const images = message.content.some((part) => part.type === "image");
      const output = images ? message.content.map(inputPart) : textOf(message.content, "\n");
      return { type, call_id: message.callId, output };
    }
  }
}

function assistantItems(parts: AssistantPart[], custom: Set<string>, customCalls: Set<string>): Item[] {
  const items: Item[] = [];
  let text: Item[] = [];
  const flush = () => {
    if (text.length > 0) items.push({ type: "message", role: "assistant", content: text });
    text = [];
  };
  for (const part of parts) {
    if (part.type === "text") {
      if (part.text) text.push({ type: "output_text", text: part.text });
      continue;
    }
    flush();
    if (part.type === "reasoning") {
      // Only this wire's own items continue a chain; other wires' reasoning is not readable here.
      // With `store: false` an item without its encrypted content names nothing the server keeps.
      for (const next of part.continuation ?? [])
        if (next.wire === "responses" && typeof next.item.encrypted_content === "string")
          items.push(next.item);
    } else if (custom.has(part.name)) {
      customCalls.add(part.id);
      items.push({
        type: "custom_tool_call",
        call_id: part.id,
        name: part.name,
        input: customInput(part.arguments),
      });
    } else {
      items.push({ type: "function_call", call_id: part.id, name: part.name, arguments: part.arguments });
    }
  }
  flush();
  return items;
}

/** A custom call's raw input, stored as `{"input": raw}`; anything else is passed as the text it is. */
function customInput(args: string): string {
  try {
    const parsed = JSON.parse(args) as { input?: unknown };
    if (typeof parsed?.input === "string") return parsed.input;
  } catch {
    // Not the stored form: the text is the input.
  }
  return args;
}

function inputPart(part: UserPart): Item {
  return part.type === "text"
    ? { type: "input_text", text: part.text }
    : { type: "input_image", image_url: part.url, detail: part.detail ?? "auto" };
}

export function responsesTool(tool: ToolSpec): Item {
  if (tool.type === "custom") {
    return {
      type: "custom",
      name: tool.name,
      description: tool.description,
      ...(tool.format ? { format: tool.format } : {}),
    };
  }
  return {
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
  };
}
