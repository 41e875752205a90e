import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/providers/model-request.js";
import { createChatProvider } from "../src/providers/openai-chat.js";
import type { ModelEndpoint, ProviderEvent } from "../src/providers/types.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";

const request: ModelRequest = {
  system: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};
const readTool = {
  type: "function" as const,
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: {} },
};

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const textOf = (events: ProviderEvent[], type: "text" | "reasoning") =>
  events.map((e) => (e.type === type ? e.text : "")).join("");
const callsOf = (events: ProviderEvent[]) => events.filter((e) => e.type === "tool_calls");
const chunk = (delta: object, finish: string | null = null) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

let model: FakeModel;
let endpoint: ModelEndpoint;
const stream = (req: ModelRequest = request, ep: ModelEndpoint = endpoint) =>
  collect(createChatProvider(ep).stream(req, { signal: new AbortController().signal }));

beforeEach(async () => {
  model = await startFakeModel();
  endpoint = { providerId: "fake", baseUrl: model.url, apiKey: "sk-test-secret-123", model: "fake-model" };
});
afterEach(async () => {
  await model.close();
});

describe("chat provider: streaming", () => {
  it("streams text in pieces and sends the documented request", async () => {
    model.reply({
      text: "Hello there, world",
      chunkSize: 5,
      expect: (body) => {
        expect(body).toMatchObject({
          model: "fake-model",
          stream: true,
          stream_options: { include_usage: true },
        });
        expect(body.messages).toEqual([{ role: "user", content: "hi" }]);
        expect(body).not.toHaveProperty("tools");
        expect(body.max_tokens).toBe(100);
      },
    });
    const events = await stream(
      { ...request, knobs: { maxTokens: 100 } },
      { ...endpoint, headers: { "X-Custom": "yes" }, queryParams: { "api-version": "2024" } },
    );
    expect(events.filter((e) => e.type === "text").length).toBe(4);
    expect(textOf(events, "text")).toBe("Hello there, world");
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    const sent = model.requests[0]!;
    expect(sent.headers.authorization).toBe("Bearer sk-test-secret-123");
    expect(sent.headers["x-custom"]).toBe("yes");
    expect(sent.query).toEqual({ "api-version": "2024" });
    model.assertDone();
  });

  it("sends no Authorization header when the endpoint has no key", async () => {
    model.reply({ text: "ok" });
    await stream(request, { ...endpoint, apiKey: undefined });
    expect(model.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("reads reasoning from reasoning_content and from reasoning", async () => {
    model.reply(
      { reasoning: "think A", text: "answer A" },
      { reasoning: "think B", reasoningField: "reasoning", text: "answer B" },
    );
    const first = await stream();
    const second = await stream();
    expect(textOf(first, "reasoning")).toBe("think A");
    expect(textOf(first, "text")).toBe("answer A");
    expect(textOf(second, "reasoning")).toBe("think B");
    expect(first.findIndex((e) => e.type === "reasoning")).toBeLessThan(
      first.findIndex((e) => e.type === "text"),
    );
  });

  it("does not double reasoning sent under both names, and reads content part arrays", async () => {
    model.reply({
      raw: [
        chunk({ reasoning_content: "step", reasoning: "step" }),
        chunk({
          content: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
        }),
        chunk({}, "stop"),
        "[DONE]",
      ],
    });
    const events = await stream();
    expect(textOf(events, "reasoning")).toBe("step");
    expect(textOf(events, "text")).toBe("ab");
  });

  it("assembles split tool-call arguments into one call, after the text", async () => {
    const args = { path: "src/some/rather/long/file/name.ts", limit: 200 };
    model.reply({
      text: "Reading.",
      toolCalls: [{ id: "call_1", name: "read", arguments: args }],
      chunkSize: 3,
      expect: (body) => expect(body.tools).toEqual([readTool]),
    });
    const events = await stream({ ...request, tools: [readTool] });
    const calls = callsOf(events);
    expect(calls).toEqual([
      { type: "tool_calls", calls: [{ id: "call_1", name: "read", arguments: JSON.stringify(args) }] },
    ]);
    expect(events.map((e) => e.type).slice(-3)).toEqual(["tool_calls", "usage", "done"]);
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "tool_calls" });
  });

  it("keeps parallel calls apart", async () => {
    model.reply({
      toolCalls: [
        { id: "a", name: "read", arguments: { path: "one.txt" } },
        { id: "b", name: "grep", arguments: { pattern: "x" } },
      ],
      chunkSize: 4,
    });
    const [event] = callsOf(await stream());
    expect(event).toEqual({
      type: "tool_calls",
      calls: [
        { id: "a", name: "read", arguments: '{"path":"one.txt"}' },
        { id: "b", name: "grep", arguments: '{"pattern":"x"}' },
      ],
    });
  });

  it("tolerates missing indexes: id starts a call, id-less fragments continue it", async () => {
    const tc = (part: object) => chunk({ tool_calls: [part] });
    model.reply({
      raw: [
        tc({ id: "a", type: "function", function: { name: "read", arguments: '{"pa' } }),
        tc({ function: { arguments: 'th":"x"}' } }),
        tc({ id: "b", type: "function", function: { name: "ls", arguments: "" } }),
        tc({ function: { arguments: "{}" } }),
        chunk({}, "tool_calls"),
        "[DONE]",
      ],
    });
    const [event] = callsOf(await stream());
    expect(event).toEqual({
      type: "tool_calls",
      calls: [
        { id: "a", name: "read", arguments: '{"path":"x"}' },
        { id: "b", name: "ls", arguments: "{}" },
      ],
    });
  });

  it("tolerates ids repeated on every fragment and a second call reusing index 0", async () => {
    const tc = (part: object) => chunk({ tool_calls: [part] });
    model.reply({
      raw: [
        tc({ index: 0, id: "a", function: { name: "read", arguments: '{"path":' } }),
        tc({ index: 0, id: "a", function: { name: "read", arguments: '"x"}' } }),
        tc({ index: 0, id: "b", function: { name: "ls", arguments: '{"dir":' } }),
        tc({ index: 0, function: { arguments: '"."}' } }),
        // finish_reason "stop" with calls present, and no [DONE]: still a tool-call turn.
        chunk({}, "stop"),
      ],
    });
    const events = await stream();
    expect(callsOf(events)).toEqual([
      {
        type: "tool_calls",
        calls: [
          { id: "a", name: "read", arguments: '{"path":"x"}' },
          { id: "b", name: "ls", arguments: '{"dir":"."}' },
        ],
      },
    ]);
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "tool_calls" });
  });

  it("gives id-less calls a generated id and accepts whole arguments in one fragment", async () => {
    model.reply({
      raw: [chunk({ tool_calls: [{ index: 0, function: { name: "ls", arguments: '{"dir":"."}' } }] })],
    });
    const events = await collect(
      createChatProvider(endpoint, { newId: () => "call_generated" }).stream(request, {
        signal: new AbortController().signal,
      }),
    );
    expect(callsOf(events)).toEqual([
      { type: "tool_calls", calls: [{ id: "call_generated", name: "ls", arguments: '{"dir":"."}' }] },
    ]);
    // Neither finish_reason nor [DONE]: a clean end of stream still completes the answer.
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "tool_calls" });
  });

  it("generates distinct call_ ids by default", async () => {
    const tc = (index: number) =>
      chunk({ tool_calls: [{ index, function: { name: "ls", arguments: "{}" } }] });
    model.reply({ raw: [tc(0), tc(1), "[DONE]"] });
    const [event] = callsOf(await stream());
    const ids = event?.type === "tool_calls" ? event.calls.map((c) => c.id) : [];
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^call_[0-9a-f]{24}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("reports usage from the final chunk, including cached and reasoning tokens", async () => {
    model.reply({
      text: "ok",
      usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 1024, reasoning_tokens: 12 },
    });
    const events = await stream();
    expect(events.filter((e) => e.type === "usage")).toEqual([
      {
        type: "usage",
        usage: { inputTokens: 1200, outputTokens: 30, cachedInputTokens: 1024, reasoningTokens: 12 },
      },
    ]);
  });

  it("does not ask for usage when the endpoint says so", async () => {
    model.reply({ text: "ok", expect: (body) => expect(body).not.toHaveProperty("stream_options") });
    const events = await stream(request, { ...endpoint, includeUsage: false });
    expect(events.some((e) => e.type === "usage")).toBe(false);
    model.assertDone();
  });

  it("maps finish_reason length", async () => {
    model.reply({ text: "cut", finishReason: "length" });
    expect((await stream()).at(-1)).toEqual({ type: "done", finishReason: "length" });
  });
});

describe("chat provider: HTTP", () => {
  it("keeps one connection alive across a session's requests", async () => {
    const provider = createChatProvider(endpoint);
    for (let i = 0; i < 3; i++) {
      model.reply({ text: `answer ${i}` });
      const events = await collect(provider.stream(request, { signal: new AbortController().signal }));
      expect(textOf(events, "text")).toBe(`answer ${i}`);
      // undici returns the socket to its pool a tick after the body ended; a session's next
      // request always comes later than that (the turn loop runs in between).
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(new Set(model.requests.map((r) => r.clientPort)).size).toBe(1);
    expect(model.requests[0]!.headers["content-type"]).toBe("application/json");
    expect(model.requests[0]!.headers.authorization).toBe("Bearer sk-test-secret-123");
  });

  it("reads server-sent events split anywhere, with CRLF, comments and multi-line data", async () => {
    const body = [
      ": keep-alive comment\r\n",
      `data: ${chunk({ content: "Hel" })}\r\n\r\n`,
      // One JSON object over two data lines (joined with a newline, still valid JSON).
      `event: message\ndata: {"choices":[{"index":0,\ndata: "delta":{"content":"lo"}}]}\n\n`,
      `data: ${chunk({ content: " wörld" }, "stop")}\r\n\r\n`,
      "data: [DONE]\r\n\r\n",
    ].join("");
    const bytes = Buffer.from(body);
    model.reply({
      async handle(_req, res) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        // Three bytes at a time: splits CRLFs, JSON and the two bytes of "ö".
        for (let i = 0; i < bytes.length; i += 3) {
          res.write(bytes.subarray(i, i + 3));
          await new Promise((resolve) => setImmediate(resolve));
        }
        res.end();
      },
    });
    const events = await stream();
    expect(textOf(events, "text")).toBe("Hello wörld");
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
  });
});
