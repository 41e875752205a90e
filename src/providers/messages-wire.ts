import {
  type AssistantPart,
  type Message,
  type ModelRequest,
  type TextPart,
  type ToolSpec,
  textOf,
  type UserPart,
} from "./model-request.js";

/**
 * Anthropic Messages JSON, as much of it as we send. Pure: the provider adds `stream` and the
 * SDK the route and headers.
 */
type CacheControl = { cache_control?: { type: "ephemeral" } };
type TextBlock = { type: "text"; text: string } & CacheControl;
type ImageBlock = {
  type: "image";
  source: { type: "base64"; media_type: string; data: string } | { type: "url"; url: string };
} & CacheControl;
type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content?: string | Array<TextBlock | ImageBlock>;
  is_error?: boolean;
} & CacheControl;
type ToolUseBlock = {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
} & CacheControl;
type Block = TextBlock | ImageBlock | ToolResultBlock | ToolUseBlock | Record<string, unknown>;
export type MessagesMessage = { role: "user" | "assistant"; content: Block[] };

export interface MessagesWireOptions {
  model: string;
  /** Config's `model_thinking_budget`; the harness's `knobs.thinking` wins. */
  thinkingBudget?: number;
  /** The endpoint's own body fields, merged last. */
  extraBody?: Record<string, unknown>;
}

/**
 * `max_tokens` is required on this wire. Without a harness value we send what Claude Code and
 * pi send on it: large enough never to cut a long edit short, and accepted by every current
 * model and the compatible endpoints we know.
 */
export const DEFAULT_MAX_TOKENS = 32_000;

/** The request as a Messages body, without `stream`. */
export function messagesBody(request: ModelRequest, options: MessagesWireOptions): Record<string, unknown> {
  const knobs = request.knobs ?? {};
  const system = textBlocks(request.system);
  const budget = knobs.thinking?.budgetTokens ?? options.thinkingBudget;
  const maxTokens = knobs.maxTokens ?? DEFAULT_MAX_TOKENS;
  // The API rejects a budget that is not below max_tokens, and sampling knobs next to thinking.
  const thinking = budget !== undefined && budget > 0 ? Math.min(budget, maxTokens - 1) : undefined;
  return {
    model: options.model,
    max_tokens: maxTokens,
    ...(system.length > 0 ? { system } : {}),
    messages: messagesOf(request.messages),
    ...(request.tools.length > 0 ? { tools: request.tools.map(messagesTool) } : {}),
    ...(thinking === undefined && knobs.temperature !== undefined ? { temperature: knobs.temperature } : {}),
    ...(thinking === undefined && knobs.topP !== undefined ? { top_p: knobs.topP } : {}),
    ...(thinking !== undefined ? { thinking: { type: "enabled", budget_tokens: thinking } } : {}),
    ...(knobs.userId !== undefined ? { metadata: { user_id: knobs.userId } } : {}),
    ...knobs.extra?.messages,
    ...options.extraBody,
  };
}

/**
 * The conversation in the API's shape: roles alternate (neighbours of one role merge, as the API
 * itself would merge them), tool results open the user message after the calls they answer.
 */
export function messagesOf(messages: readonly Message[]): MessagesMessage[] {
  const out: MessagesMessage[] = [];
  const append = (role: MessagesMessage["role"], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case "user":
        append("user", userBlocks(message.content));
        break;
      case "developer":
        append("user", textBlocks(message.content));
        break;
      case "assistant":
        append("assistant", assistantBlocks(message.content));
        break;
      case "tool": {
        const result = toolResult(message);
        const last = out.at(-1);
        if (last?.role !== "user") out.push({ role: "user", content: [result] });
        else last.content.splice(leadingResults(last.content), 0, result);
        break;
      }
    }
  }
  return out;
}

function leadingResults(blocks: readonly Block[]): number {
  const index = blocks.findIndex((block) => block.type !== "tool_result");
  return index === -1 ? blocks.length : index;
}

/**
 * A result of one text goes as a string, even an empty one, as Claude Code and pi send it on
 * this wire; a result of several texts (Claude Code's Task: the answer, then the agent id and
 * usage) or with images as blocks.
 */
function toolResult(message: Extract<Message, { role: "tool" }>): ToolResultBlock {
  const textOnly =
    message.content.length === 1 && message.content.every((part) => part.type === "text" && !part.cache);
  const content = textOnly
    ? textOf(message.content)
    : (userBlocks(message.content) as Array<TextBlock | ImageBlock>);
  return {
    type: "tool_result",
    tool_use_id: message.callId,
    ...(textOnly || content.length > 0 ? { content } : {}),
    ...(message.isError ? { is_error: true } : {}),
    ...cacheOf(message),
  };
}

/** Thinking first (only signed blocks of this wire: the API rejects others), then text, then calls. */
function assistantBlocks(parts: readonly AssistantPart[]): Block[] {
  const thinking: Block[] = [];
  const rest: Block[] = [];
  const calls: Block[] = [];
  for (const part of parts) {
    if (part.type === "reasoning") {
      for (const item of part.continuation ?? [])
        if (item.wire === "messages" && signed(item.block)) thinking.push(item.block);
    } else if (part.type === "text") {
      rest.push(...textBlocks([part]));
    } else {
      calls.push({
        type: "tool_use",
        id: part.id,
        name: part.name,
        input: inputOf(part.arguments),
        ...cacheOf(part),
      });
    }
  }
  return [...thinking, ...rest, ...calls];
}

function signed(block: Record<string, unknown>): boolean {
  if (block.type === "thinking") return typeof block.signature === "string" && block.signature !== "";
  return block.type === "redacted_thinking" && typeof block.data === "string";
}

/**
 * `input` must be an object. Arguments that are not one (a call cut off by max_tokens, a model
 * that wrote broken JSON) go back as `{}`: the tool's own result after it already tells the
 * model what went wrong, and the request stays valid.
 */
function inputOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to {}
  }
  return {};
}

function userBlocks(parts: readonly UserPart[]): Block[] {
  return parts.flatMap((part): Block[] =>
    part.type === "text" ? textBlocks([part]) : [imageBlock(part.url, part.cache)],
  );
}

/** Empty text blocks are rejected by the API, so they are left out. */
function textBlocks(parts: readonly TextPart[]): TextBlock[] {
  return parts
    .filter((part) => part.text !== "")
    .map((part) => ({ type: "text", text: part.text, ...cacheOf(part) }));
}

function imageBlock(url: string, cache?: boolean): ImageBlock {
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  const source = data
    ? { type: "base64" as const, media_type: data[1] ?? "", data: data[2] ?? "" }
    : { type: "url" as const, url };
  return { type: "image", source, ...cacheOf({ cache }) };
}

function cacheOf(item: { cache?: boolean }): CacheControl {
  return item.cache ? { cache_control: { type: "ephemeral" } } : {};
}

/** A freeform tool becomes one string property `input`, the form its calls are stored in. */
export function messagesTool(tool: ToolSpec): Record<string, unknown> {
  const input_schema =
    tool.type === "custom"
      ? { type: "object", properties: { input: { type: "string" } }, required: ["input"] }
      : tool.parameters;
  return { name: tool.name, description: tool.description, input_schema, ...cacheOf(tool) };
}

/**
 * The SDK appends `/v1/messages` to its base URL; a configured base URL may end in `/v1`
 * (Anthropic's docs, our other wires) or not (the compatible endpoints' `/anthropic`).
 */
export function messagesBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}
