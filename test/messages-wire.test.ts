import { describe, expect, it } from "vitest";
import { createMessagesReader } from "../src/providers/messages-stream.js";
import { messagesBaseUrl, messagesBody, messagesOf } from "../src/providers/messages-wire.js";
import type { ModelRequest } from "../src/providers/model-request.js";
import { validateMessagesBody } from "./support/fake-wire-messages.js";

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] });
const call = (id: string) => ({
  role: "assistant" as const,
  content: [{ type: "tool_call" as const, id, name: "run", arguments: '{"cmd":"ls"}' }],
});
const result = (callId: string, text = "ok") => ({
  role: "tool" as const,
  callId,
  content: [{ type: "text" as const, text }],
});
const body = (request: Partial<ModelRequest>, options = {}) =>
  messagesBody({ system: [], messages: [user("hi")], tools: [], ...request }, { model: "m", ...options });

describe("messages wire: the conversation", () => {
  it("puts tool results first in one user message, even after a user text that came before them", () => {
    const out = messagesOf([user("go"), call("a"), user("also this"), result("a"), user("and that")]);
    expect(out).toEqual([
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "a", name: "run", input: { cmd: "ls" } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", content: "ok" },
          { type: "text", text: "also this" },
          { type: "text", text: "and that" },
        ],
      },
    ]);
    expect(validateMessagesBody({ model: "m", max_tokens: 10, messages: out })).toEqual([]);
  });

  it("sends a text-only result as one string, an empty one as an empty string (as Claude Code and pi do)", () => {
    const out = messagesOf([
      user("go"),
      call("a"),
      result("a", ""),
      { ...result("b", "cached"), cache: true },
    ]);
    expect(out[2]!.content).toEqual([
      { type: "tool_result", tool_use_id: "a", content: "" },
      { type: "tool_result", tool_use_id: "b", content: "cached", cache_control: { type: "ephemeral" } },
    ]);
  });

  it("sends developer instructions as user text and drops empty text", () => {
    const out = messagesOf([
      { role: "developer", content: [{ type: "text", text: "be brief" }] },
      {
        role: "user",
        content: [
          { type: "text", text: "" },
          { type: "text", text: "hi" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "" },
          { type: "reasoning", text: "no signature" },
        ],
      },
    ]);
    expect(out).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "be brief" },
          { type: "text", text: "hi" },
        ],
      },
    ]);
  });

  it("sends https images as url sources and data URLs as base64", () => {
    const [message] = messagesOf([
      {
        role: "user",
        content: [
          { type: "image", url: "https://example.com/a.png" },
          { type: "image", url: "data:image/jpeg;base64,/9j/4AAQ", cache: true },
        ],
      },
    ]);
    expect(message?.content).toEqual([
      { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
      {
        type: "image",
        source: { type: "base64", media_type: "image/jpeg", data: "/9j/4AAQ" },
        cache_control: { type: "ephemeral" },
      },
    ]);
  });

  it("keeps redacted thinking and signed thinking in order, before the text", () => {
    const redacted = { type: "redacted_thinking", data: "opaque" };
    const thought = { type: "thinking", thinking: "hmm", signature: "sig" };
    const unsigned = { type: "thinking", thinking: "hmm", signature: "" };
    const [, assistant] = messagesOf([
      user("hi"),
      {
        role: "assistant",
        content: [
          { type: "text", text: "answer" },
          {
            type: "reasoning",
            text: "hmm",
            continuation: [
              { wire: "messages", block: redacted },
              { wire: "messages", block: unsigned },
              { wire: "messages", block: thought },
            ],
          },
        ],
      },
    ]);
    expect(assistant?.content).toEqual([redacted, thought, { type: "text", text: "answer" }]);
  });
});

describe("messages wire: the body", () => {
  it("turns a freeform tool into one string property and keeps function schemas", () => {
    const out = body({
      tools: [
        { type: "custom", name: "apply_patch", description: "Patch files", format: { type: "text" } },
        { type: "function", name: "run", description: "Run", parameters: { type: "object" }, strict: false },
      ],
    });
    expect(out.tools).toEqual([
      {
        name: "apply_patch",
        description: "Patch files",
        input_schema: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
      },
      { name: "run", description: "Run", input_schema: { type: "object" } },
    ]);
  });

  it("takes the harness's thinking over the endpoint's, keeps it below max_tokens and drops sampling knobs", () => {
    expect(body({ knobs: { temperature: 0.5 } }, { thinkingBudget: 2048 })).toMatchObject({
      max_tokens: 32_000,
      thinking: { type: "enabled", budget_tokens: 2048 },
    });
    const out = body(
      { knobs: { maxTokens: 4000, thinking: { budgetTokens: 8000 }, topP: 0.5 } },
      { thinkingBudget: 2048 },
    );
    expect(out.thinking).toEqual({ type: "enabled", budget_tokens: 3999 });
    expect(out).not.toHaveProperty("top_p");
    expect(body({ knobs: { temperature: 0.5, topP: 0.9 } })).toMatchObject({ temperature: 0.5, top_p: 0.9 });
  });

  it("sends user_id as metadata and merges the wire's extras, then the endpoint's, last", () => {
    const out = body(
      { knobs: { userId: "u1", extra: { messages: { top_k: 5, service_tier: "auto" }, chat: { seed: 1 } } } },
      { extraBody: { service_tier: "standard_only" } },
    );
    expect(out).toMatchObject({ metadata: { user_id: "u1" }, top_k: 5, service_tier: "standard_only" });
    expect(out).not.toHaveProperty("seed");
  });

  it("accepts a base URL with or without /v1", () => {
    expect(messagesBaseUrl("https://api.anthropic.com/v1/")).toBe("https://api.anthropic.com");
    expect(messagesBaseUrl("https://api.anthropic.com")).toBe("https://api.anthropic.com");
    expect(messagesBaseUrl("https://api.moonshot.ai/anthropic")).toBe("https://api.moonshot.ai/anthropic");
  });
});

describe("messages stream reader", () => {
  it("collects thinking and redacted thinking in block order, and ignores unknown events", () => {
    const reader = createMessagesReader();
    const shown = [
      { type: "message_start", message: { usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "redacted_thinking", data: "opaque" } },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 1, delta: { type: "thinking_delta", thinking: "let me see" } },
      { type: "content_block_delta", index: 1, delta: { type: "signature_delta", signature: "abc" } },
      { type: "something_new", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 2, delta: { type: "thinking_delta", thinking: "unsigned" } },
      { type: "message_delta", delta: { stop_reason: "refusal" }, usage: { output_tokens: 4 } },
      { type: "message_stop" },
    ].flatMap((event) => reader.read(event));
    expect(shown).toEqual([
      { type: "reasoning", text: "let me see" },
      { type: "reasoning", text: "unsigned" },
    ]);
    expect(reader.result()).toEqual({
      calls: [],
      continuation: [
        { wire: "messages", block: { type: "redacted_thinking", data: "opaque" } },
        { wire: "messages", block: { type: "thinking", thinking: "let me see", signature: "abc" } },
      ],
      stopped: true,
      usage: { inputTokens: 5, outputTokens: 4 },
      finishReason: "content_filter",
    });
  });
});

describe("fake Messages server: strict validation", () => {
  const ok = {
    model: "m",
    max_tokens: 100,
    messages: [
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "a", name: "run", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "done" }] },
    ],
  };
  const withMessages = (messages: object[]) => ({
    ...ok,
    messages: [...ok.messages.slice(0, 2), ...messages],
  });

  it("accepts a valid body", () => {
    expect(validateMessagesBody(ok)).toEqual([]);
  });

  it.each([
    ["a missing max_tokens", { ...ok, max_tokens: undefined }, "max_tokens"],
    ["an unknown field", { ...ok, stream_options: {} }, "unknown field stream_options"],
    ["a temperature above 1", { ...ok, temperature: 1.5 }, "temperature"],
    [
      "an unanswered tool_use",
      withMessages([{ role: "user", content: [{ type: "text", text: "hm" }] }]),
      "tool_use a has no tool_result",
    ],
    [
      "a tool_result after text",
      withMessages([
        {
          role: "user",
          content: [
            { type: "text", text: "first" },
            { type: "tool_result", tool_use_id: "a" },
          ],
        },
      ]),
      "tool_result after other content",
    ],
    [
      "an unsigned thinking block",
      {
        ...ok,
        messages: [
          ok.messages[0],
          { role: "assistant", content: [{ type: "thinking", thinking: "x" }, ...ok.messages[1]!.content] },
          ok.messages[2],
        ],
      },
      "thinking without a signature",
    ],
    [
      "a wrong cache_control",
      { ...ok, system: [{ type: "text", text: "s", cache_control: { type: "persistent" } }] },
      "cache_control",
    ],
    [
      "a misplaced cache field",
      { ...ok, system: [{ type: "text", text: "s", cache: true }] },
      "unknown field cache",
    ],
    [
      "two user messages in a row",
      withMessages([ok.messages[2]!, { role: "user", content: [{ type: "text", text: "again" }] }]),
      "two user messages in a row",
    ],
  ])("rejects %s", (_name, request, problem) => {
    expect(validateMessagesBody(request).join("\n")).toContain(problem);
  });
});
