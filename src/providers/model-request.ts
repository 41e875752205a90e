/**
 * The wire-neutral request: what a harness renders and what each wire's provider translates
 * (Chat Completions, OpenAI Responses, Anthropic Messages). Richer than any one wire, so no
 * harness ever builds wire JSON and the history can be sent on any of them.
 */
import type { WireApi } from "../config/types.js";
import type { Continuation } from "../store/events.js";

/** The model APIs the originals speak (config's `wire_api`). */
export type Wire = WireApi;

/** A cache breakpoint after this block (Anthropic `cache_control`; ignored where a wire has none). */
interface Cacheable {
  cache?: boolean;
}

export interface TextPart extends Cacheable {
  type: "text";
  text: string;
}

export interface ImagePart extends Cacheable {
  type: "image";
  /** A `data:` URL (base64) or an `https:` URL. */
  url: string;
  /** Responses `detail` (default `auto`); the other wires have no such field. */
  detail?: "auto" | "low" | "high" | "original";
}

export interface ToolCallPart extends Cacheable {
  type: "tool_call";
  id: string;
  name: string;
  /**
   * The arguments as JSON text, exactly as the model sent them. A freeform (custom) tool's raw
   * input travels as `{"input": "<raw>"}`, so every tool's calls are stored the same way.
   */
  arguments: string;
}

/**
 * What a provider needs to continue a reasoning model's chain on its own wire: a Responses
 * `reasoning` item (with `encrypted_content`), an Anthropic `thinking` / `redacted_thinking`
 * block (with its signature). Kept as the wire sent it, stored with the response in the
 * history; only that wire reads it back.
 */
export type { Continuation };

export interface ReasoningPart {
  type: "reasoning";
  /** The readable reasoning (Chat's `reasoning_content`, a summary, or thinking text); may be "". */
  text: string;
  continuation?: Continuation[];
}

export type UserPart = TextPart | ImagePart;
export type AssistantPart = TextPart | ReasoningPart | ToolCallPart;

export type Message =
  /** `asParts`: Chat sends the content as a parts array even when it is one text (Qwen Code's messages). */
  | { role: "user"; content: UserPart[]; asParts?: boolean }
  /** Instructions inside the conversation (Responses `developer`; Chat `system`; Messages a user text). */
  | { role: "developer"; content: TextPart[] }
  | { role: "assistant"; content: AssistantPart[] }
  /** The answer to one call; the wire groups consecutive answers as it requires. */
  | {
      role: "tool";
      callId: string;
      content: UserPart[];
      isError?: boolean;
      cache?: boolean;
      asParts?: boolean;
      /**
       * Chat: images stay among the tool message's parts (Kimi's API reads them there) instead of
       * following the run of tool messages as one user message, which every Chat server accepts.
       */
      imagesInside?: boolean;
    };

export interface FunctionTool extends Cacheable {
  type: "function";
  name: string;
  description: string;
  /** JSON Schema of the arguments, sent unchanged. */
  parameters: Record<string, unknown>;
  /** Sent only where the original sends it (`strict: false` for Codex and pi). */
  strict?: boolean;
}

/**
 * A freeform tool whose input is raw text (Codex's `apply_patch` with its Lark grammar). Wires
 * without freeform tools get a function tool with one string parameter `input`.
 */
export interface CustomTool extends Cacheable {
  type: "custom";
  name: string;
  description: string;
  format?: { type: "grammar"; syntax: "lark" | "regex"; definition: string } | { type: "text" };
}

export type ToolSpec = FunctionTool | CustomTool;

/** Request settings an original sends; each wire translates what it has and ignores the rest. */
export interface Knobs {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  /** Chat and Responses `prompt_cache_key`. */
  promptCacheKey?: string;
  parallelToolCalls?: boolean;
  /** Responses `reasoning`; Chat `reasoning_effort`. */
  reasoning?: { effort?: string; summary?: string };
  /** Messages `thinking`: extended thinking with a budget. */
  thinking?: { budgetTokens: number };
  /** Messages `metadata.user_id`. */
  userId?: string;
  /** Body fields only one wire has, for what only one original sends (merged last). */
  extra?: Partial<Record<Wire, Record<string, unknown>>>;
}

export interface ModelRequest {
  /** Instruction blocks in order: Chat joins them into one system message, Responses into `instructions`. */
  system: TextPart[];
  messages: Message[];
  tools: ToolSpec[];
  knobs?: Knobs;
}

/** The text parts of `parts` joined by `separator`. */
export function textOf(parts: readonly { type: string; text?: string }[], separator = ""): string {
  return parts
    .filter((part): part is TextPart => part.type === "text")
    .map((part) => part.text)
    .join(separator);
}
