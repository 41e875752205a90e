import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/providers/model-request.js";
import { createChatProvider } from "../src/providers/openai-chat.js";
import type { ModelEndpoint, ProviderEvent } from "../src/providers/types.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";

// Server quirks of the Chat wire, through the SDK, against the scripted server.

const hi: ModelRequest = {
  system: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};
const tool = {
  type: "function" as const,
  name: "write",
  description: "Write a file",
  parameters: { type: "object" },
};
const withTool: ModelRequest = { ...hi, tools: [tool] };

const chunk = (delta: object, finish: string | null = null) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const usageChunk = (usage: object) =>
  JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [], usage });

let model: FakeModel;
let endpoint: ModelEndpoint;

beforeEach(async () => {
  model = await startFakeModel();
  endpoint = { providerId: "local", baseUrl: model.url, model: "fake-model", maxRetries: 0 };
});
afterEach(async () => {
  await model.close();
});

async function stream(request: ModelRequest = hi, ep: ModelEndpoint = endpoint): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of createChatProvider(ep).stream(request, { signal: new AbortController().signal }))
    out.push(event);
  return out;
}
const calls = (events: ProviderEvent[]) => events.flatMap((e) => (e.type === "tool_calls" ? e.calls : []));
const last = (events: ProviderEvent[]) => events.at(-1);

describe("chat quirks: tool-call fragments", () => {
  it("assembles fragments with an index (OpenAI, vLLM) and without one (some llama.cpp builds)", async () => {
    model.reply(
      {
        raw: [
          chunk({
            tool_calls: [
              { index: 0, id: "a", type: "function", function: { name: "write", arguments: '{"pa' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"x"}' } }] }),
          chunk({}, "tool_calls"),
          "[DONE]",
        ],
      },
      {
        raw: [
          chunk({
            tool_calls: [{ id: "b", type: "function", function: { name: "write", arguments: '{"pa' } }],
          }),
          chunk({ tool_calls: [{ function: { arguments: 'th":"y"}' } }] }),
          chunk({}, "tool_calls"),
          "[DONE]",
        ],
      },
    );
    expect(calls(await stream(withTool))).toEqual([{ id: "a", name: "write", arguments: '{"path":"x"}' }]);
    expect(calls(await stream(withTool))).toEqual([{ id: "b", name: "write", arguments: '{"path":"y"}' }]);
    model.assertDone();
  });

  it("keeps several calls of one reply apart, in order", async () => {
    model.reply({
      toolCalls: [
        { id: "c1", name: "write", arguments: { path: "a" } },
        { id: "c2", name: "write", arguments: { path: "b" } },
        { id: "c3", name: "write", arguments: { path: "c" } },
      ],
      chunkSize: 3,
    });
    const events = await stream(withTool);
    expect(calls(events).map((c) => [c.id, JSON.parse(c.arguments).path])).toEqual([
      ["c1", "a"],
      ["c2", "b"],
      ["c3", "c"],
    ]);
    expect(last(events)).toEqual({ type: "done", finishReason: "tool_calls" });
    model.assertDone();
  });

  it("a call cut at max_tokens reports finish length with the half-written call, never a crash", async () => {
    model.reply({
      toolCalls: [{ id: "cut", name: "write", arguments: '{"path":"a.txt","content":"hel' }],
      finishReason: "length",
    });
    const events = await stream(withTool);
    expect(calls(events)).toEqual([
      { id: "cut", name: "write", arguments: '{"path":"a.txt","content":"hel' },
    ]);
    expect(last(events)).toEqual({ type: "done", finishReason: "length" });
    model.assertDone();
  });
});

describe("chat quirks: usage", () => {
  it("reads usage from the last chunk, with cached and reasoning tokens", async () => {
    model.reply({
      text: "ok",
      usage: { prompt_tokens: 900, completion_tokens: 20, cached_tokens: 512, reasoning_tokens: 5 },
    });
    const events = await stream();
    expect(events.find((e) => e.type === "usage")).toEqual({
      type: "usage",
      usage: { inputTokens: 900, outputTokens: 20, cachedInputTokens: 512, reasoningTokens: 5 },
    });
    model.assertDone();
  });

  it("without a usage chunk the answer is still whole, with no usage event", async () => {
    model.reply({ text: "no usage here", usage: false });
    const events = await stream();
    expect(events.some((e) => e.type === "usage")).toBe(false);
    expect(last(events)).toEqual({ type: "done", finishReason: "stop" });
    model.assertDone();
  });

  it("takes usage sent with the finish chunk instead of after it", async () => {
    model.reply({
      raw: [
        chunk({ content: "ok" }),
        JSON.stringify({
          id: "c1",
          choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
          usage: { prompt_tokens: 3, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 2 } },
        }),
        usageChunk({ prompt_tokens: 3, completion_tokens: 1, prompt_tokens_details: { cached_tokens: 2 } }),
        "[DONE]",
      ],
    });
    const events = await stream();
    expect(events.filter((e) => e.type === "usage")).toEqual([
      { type: "usage", usage: { inputTokens: 3, outputTokens: 1, cachedInputTokens: 2 } },
    ]);
  });
});

describe("chat quirks: errors", () => {
  it.each([
    [
      "OpenAI",
      400,
      {
        error: {
          message:
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 130001 tokens.",
          code: "context_length_exceeded",
        },
      },
    ],
    [
      "vLLM",
      400,
      {
        object: "error",
        message:
          "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion).",
        type: "BadRequestError",
        code: 400,
      },
    ],
    [
      "llama.cpp",
      400,
      {
        error: {
          code: 400,
          message: "the request exceeds the available context size, try increasing it",
          type: "exceed_context_size_error",
        },
      },
    ],
    [
      "LM Studio",
      400,
      {
        error:
          "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens",
      },
    ],
    [
      "a gateway (413, prompt is too long)",
      413,
      { error: { message: "prompt is too long: 210000 tokens > 200000 maximum" } },
    ],
    [
      "a proxy (413, no wording)",
      413,
      "<html><head><title>413 Request Entity Too Large</title></head><body><h1>413 Request Entity Too Large</h1></body></html>",
    ],
  ])("context overflow from %s → context_length", async (_name, status, body) => {
    model.reply({ status, body });
    const event = last(await stream());
    expect(event?.type === "error" && event.error).toMatchObject({
      code: "context_length",
      status,
      retryable: false,
    });
    expect(event?.type === "error" && event.error.message).toContain(
      "longer than the model's context window",
    );
    model.assertDone();
  });

  it("shortens an HTML error body to its title", async () => {
    model.reply({
      status: 502,
      body: `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>${"x".repeat(5000)}</style></head><body><h1>Bad Gateway</h1></body></html>`,
    });
    const event = last(await stream());
    expect(event?.type === "error" && event.error.message).toMatch(
      /HTTP 502.*Server said: 502 Bad Gateway \(HTML page\)$/,
    );
    expect(event?.type === "error" && event.error.message.length).toBeLessThan(400);
  });

  it("a server rejecting stream_options is asked again at once without it", async () => {
    model.reply(
      { status: 400, body: { error: { message: "Unrecognized request argument supplied: stream_options" } } },
      { text: "ok", expect: (body) => expect(body).not.toHaveProperty("stream_options") },
    );
    const events = await stream();
    expect(last(events)).toEqual({ type: "done", finishReason: "stop" });
    expect(events.some((e) => e.type === "retry")).toBe(false);
    model.assertDone();
  });
});

describe("chat quirks: reasoning back and extra body", () => {
  const history: ModelRequest = {
    system: [],
    messages: [
      { role: "user", content: [{ type: "text", text: "hi" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "thinking" },
          { type: "text", text: "hello" },
        ],
      },
      { role: "user", content: [{ type: "text", text: "again" }] },
    ],
    tools: [],
  };

  it("sends reasoning_content back by default (DeepSeek, Kimi) and never when the endpoint says so (OpenAI)", async () => {
    model.reply({ text: "1", expect: (body) => expect(body.messages[1].reasoning_content).toBe("thinking") });
    await stream(history);
    model.assertDone();
    const strict = await startFakeModel({ strictOpenAI: true });
    try {
      strict.reply({ text: "2" });
      await stream(history, { ...endpoint, baseUrl: strict.url, reasoningBack: "never" });
      strict.assertDone();
      strict.reply({ text: "3" });
      await stream(history, { ...endpoint, baseUrl: strict.url });
      expect(() => strict.assertDone()).toThrow(/reasoning_content, which OpenAI rejects/);
    } finally {
      await strict.close();
    }
  });

  it("merges the endpoint's extra body (Qwen enable_thinking) into every request", async () => {
    model.reply(
      { text: "a", expect: (body) => expect(body.enable_thinking).toBe(false) },
      { text: "b", expect: (body) => expect(body.enable_thinking).toBe(false) },
    );
    const provider = createChatProvider({ ...endpoint, extraBody: { enable_thinking: false } });
    for (let i = 0; i < 2; i++)
      for await (const _ of provider.stream(hi, { signal: new AbortController().signal })) {
        // drain
      }
    model.assertDone();
  });
});
