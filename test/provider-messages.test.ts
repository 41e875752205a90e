import { createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMessagesProvider } from "../src/providers/anthropic-messages.js";
import type { Continuation, ModelRequest } from "../src/providers/model-request.js";
import type { ModelEndpoint, ProviderEvent } from "../src/providers/types.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";
import { fakeSignature } from "./support/fake-wire-messages.js";

const hello: ModelRequest = {
  system: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};
const readTool = {
  type: "function" as const,
  name: "read",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } } },
};
const PNG = "iVBORw0KGgo=";

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}
const textOf = (events: ProviderEvent[], type: "text" | "reasoning") =>
  events.map((e) => (e.type === type ? e.text : "")).join("");
const find = <T extends ProviderEvent["type"]>(events: ProviderEvent[], type: T) =>
  events.find((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);
const noSleep = async () => {};

let model: FakeModel;
let endpoint: ModelEndpoint;
const stream = (request: ModelRequest = hello, ep: ModelEndpoint = endpoint) =>
  collect(
    createMessagesProvider(ep, { sleep: noSleep }).stream(request, { signal: new AbortController().signal }),
  );

beforeEach(async () => {
  model = await startFakeModel({ models: ["claude-fake-1", "claude-fake-2"] });
  endpoint = {
    providerId: "anthropic",
    baseUrl: model.url,
    apiKey: "sk-ant-test-secret-123",
    model: "claude-fake-1",
    wire: "messages",
  };
});
afterEach(async () => {
  await model.close();
});

describe("messages provider: replies", () => {
  it("streams a text reply with the key as x-api-key and the SDK's API version", async () => {
    model.reply({
      text: "Hello there, world",
      chunkSize: 5,
      expect: (body) => {
        expect(body).toEqual({
          model: "claude-fake-1",
          max_tokens: 32_000,
          messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
          stream: true,
        });
      },
    });
    const events = await stream(hello, {
      ...endpoint,
      headers: { "X-Custom": "yes" },
      queryParams: { tag: "a" },
    });
    expect(events.filter((e) => e.type === "text").length).toBe(4);
    expect(textOf(events, "text")).toBe("Hello there, world");
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    const sent = model.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe("sk-ant-test-secret-123");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent.headers["x-custom"]).toBe("yes");
    expect(sent.query).toEqual({ tag: "a" });
    model.assertDone();
  });

  it("sends the key as a bearer token where the endpoint asks for that", async () => {
    model.reply({ text: "ok" });
    await stream(hello, { ...endpoint, authStyle: "bearer", baseUrl: `${model.url}/` });
    const sent = model.requests[0]!;
    expect(sent.headers.authorization).toBe("Bearer sk-ant-test-secret-123");
    expect(sent.headers["x-api-key"]).toBeUndefined();
    model.assertDone();
  });

  it("sends no credential at all when none is configured", async () => {
    model.reply({ text: "ok" });
    const { apiKey: _, ...keyless } = endpoint;
    const events = await stream(hello, { ...keyless, baseUrl: model.url.replace(/\/v1$/, "") });
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    expect(model.requests[0]!.headers.authorization).toBeUndefined();
    expect(model.requests[0]!.headers["x-api-key"]).toBeUndefined();
    model.assertDone();
  });

  it("stores signed thinking as a continuation and sends it back first on the next request", async () => {
    const reasoning = "The user greets me; I should greet back.";
    model.reply({
      reasoning,
      text: "Hello!",
      expect: (body) => expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 }),
    });
    const first = await stream({ ...hello, knobs: { thinking: { budgetTokens: 4096 }, temperature: 0.2 } });
    expect(textOf(first, "reasoning")).toBe(reasoning);
    const continuation = find(first, "continuation")?.continuation;
    const block = { type: "thinking", thinking: reasoning, signature: fakeSignature(reasoning) };
    expect(continuation).toEqual([{ wire: "messages", block }]);
    expect(first.map((e) => e.type).slice(-3)).toEqual(["continuation", "usage", "done"]);
    expect(model.requests[0]!.body).not.toHaveProperty("temperature");

    const foreign: Continuation = { wire: "responses", item: { type: "reasoning", encrypted_content: "x" } };
    model.reply({
      text: "Fine.",
      expect: (body) => {
        expect(body.messages[1]).toEqual({
          role: "assistant",
          content: [block, { type: "text", text: "Hello!" }],
        });
      },
    });
    await stream({
      ...hello,
      messages: [
        ...hello.messages,
        {
          role: "assistant",
          content: [
            { type: "text", text: "Hello!" },
            { type: "reasoning", text: reasoning, continuation: [...(continuation ?? []), foreign] },
            { type: "reasoning", text: "unsigned, from another wire" },
          ],
        },
        { role: "user", content: [{ type: "text", text: "how are you?" }] },
      ],
      knobs: { thinking: { budgetTokens: 4096 } },
    });
    model.assertDone();
  });

  it("reports usage with cache reads and writes as part of the prompt", async () => {
    model.reply({
      text: "ok",
      usage: { prompt_tokens: 1000, cached_tokens: 700, cache_write_tokens: 200, completion_tokens: 9 },
    });
    const events = await stream();
    expect(find(events, "usage")?.usage).toEqual({
      inputTokens: 1000,
      outputTokens: 9,
      cachedInputTokens: 700,
      cacheWriteTokens: 200,
    });
    model.assertDone();
  });

  it("marks cache_control where the request marks cache", async () => {
    model.reply({
      text: "ok",
      expect: (body) => {
        expect(body.system).toEqual([
          { type: "text", text: "You are a coding agent." },
          { type: "text", text: "Project notes.", cache_control: { type: "ephemeral" } },
        ]);
        expect(body.tools).toEqual([
          {
            name: "read",
            description: "Read a file",
            input_schema: readTool.parameters,
            cache_control: { type: "ephemeral" },
          },
        ]);
        expect(body.messages[0].content.at(-1)).toEqual({
          type: "text",
          text: "hi",
          cache_control: { type: "ephemeral" },
        });
      },
    });
    await stream({
      system: [
        { type: "text", text: "You are a coding agent." },
        { type: "text", text: "Project notes.", cache: true },
      ],
      messages: [{ role: "user", content: [{ type: "text", text: "hi", cache: true }] }],
      tools: [{ ...readTool, cache: true }],
    });
    model.assertDone();
  });
});

describe("messages provider: tool calls", () => {
  it("assembles several tool_use blocks and sends their results back, image included", async () => {
    model.reply({
      text: "Reading both.",
      chunkSize: 4,
      toolCalls: [
        { id: "toolu_1", name: "read", arguments: { path: "a.png" } },
        { id: "toolu_2", name: "read", arguments: { path: "b.txt" } },
      ],
    });
    const events = await stream({ ...hello, tools: [readTool] });
    expect(find(events, "tool_calls")?.calls).toEqual([
      { id: "toolu_1", name: "read", arguments: '{"path":"a.png"}' },
      { id: "toolu_2", name: "read", arguments: '{"path":"b.txt"}' },
    ]);
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "tool_calls" });

    model.reply({
      text: "Both read.",
      expect: (body) => {
        expect(body.messages.slice(1)).toEqual([
          {
            role: "assistant",
            content: [
              { type: "text", text: "Reading both." },
              { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.png" } },
              { type: "tool_use", id: "toolu_2", name: "read", input: { path: "b.txt" } },
            ],
          },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_1",
                content: [
                  { type: "text", text: "an image:" },
                  { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
                ],
              },
              {
                type: "tool_result",
                tool_use_id: "toolu_2",
                content: "no such file",
                is_error: true,
              },
              { type: "text", text: "and then?" },
            ],
          },
        ]);
      },
    });
    const second = await stream({
      ...hello,
      tools: [readTool],
      messages: [
        ...hello.messages,
        {
          role: "assistant",
          content: [
            { type: "text", text: "Reading both." },
            { type: "tool_call", id: "toolu_1", name: "read", arguments: '{"path":"a.png"}' },
            { type: "tool_call", id: "toolu_2", name: "read", arguments: '{"path":"b.txt"}' },
          ],
        },
        {
          role: "tool",
          callId: "toolu_1",
          content: [
            { type: "text", text: "an image:" },
            { type: "image", url: `data:image/png;base64,${PNG}` },
          ],
        },
        { role: "tool", callId: "toolu_2", content: [{ type: "text", text: "no such file" }], isError: true },
        { role: "user", content: [{ type: "text", text: "and then?" }] },
      ],
    });
    expect(textOf(second, "text")).toBe("Both read.");
    model.assertDone();
  });

  it("ends a call cut off at max_tokens with finish length, without throwing", async () => {
    model.reply({
      toolCalls: [{ id: "toolu_9", name: "read", arguments: '{"path":"src/very/long' }],
      finishReason: "max_tokens",
    });
    const events = await stream({ ...hello, tools: [readTool], knobs: { maxTokens: 64 } });
    expect(model.requests[0]!.body.max_tokens).toBe(64);
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "length" });
    expect(find(events, "error")).toBeUndefined();

    // The half-written call, sent back, keeps the request valid for the strict server.
    model.reply({ text: "Retrying smaller." });
    await stream({
      ...hello,
      tools: [readTool],
      messages: [
        ...hello.messages,
        {
          role: "assistant",
          content: [{ type: "tool_call", id: "toolu_9", name: "read", arguments: '{"path":"src/very/long' }],
        },
        {
          role: "tool",
          callId: "toolu_9",
          content: [{ type: "text", text: "invalid arguments" }],
          isError: true,
        },
      ],
    });
    expect(model.requests[1]!.body.messages[1].content[0].input).toEqual({});
    model.assertDone();
  });
});

describe("messages provider: failures", () => {
  it("reports 'prompt is too long' as context_length", async () => {
    model.reply({
      status: 400,
      body: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: "prompt is too long: 250000 tokens > 200000 maximum",
        },
      },
    });
    const events = await stream();
    const error = find(events, "error")?.error;
    expect(error).toMatchObject({ code: "context_length", status: 400, retryable: false });
    expect(error?.message).toContain("prompt is too long");
    expect(error?.message).not.toContain("sk-ant-test-secret-123");
    model.assertDone();
  });

  it("reports 413 as context_length, without retrying", async () => {
    model.reply({
      status: 413,
      body: {
        type: "error",
        error: { type: "request_too_large", message: "Request exceeds the maximum size" },
      },
    });
    const events = await stream();
    expect(find(events, "error")?.error).toMatchObject({ code: "context_length", status: 413 });
    expect(model.requests.length).toBe(1);
    model.assertDone();
  });

  it("retries a 529 overloaded answer, then streams", async () => {
    model.reply(
      { status: 529, body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
      { text: "after all" },
    );
    const events = await stream();
    expect(find(events, "retry")).toMatchObject({ attempt: 1 });
    expect(textOf(events, "text")).toBe("after all");
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    model.assertDone();
  });

  it("retries an overloaded_error event that arrives before any output", async () => {
    const errorEvent = {
      handle: (_req: unknown, res: import("node:http").ServerResponse) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })}\n\n`,
        );
      },
    };
    model.reply(errorEvent, { text: "second time lucky" });
    const events = await stream();
    expect(find(events, "retry")?.reason).toContain("529");
    expect(textOf(events, "text")).toBe("second time lucky");
    model.assertDone();
  });

  it("ends with the server's words when an error event follows some text", async () => {
    model.reply({
      handle: (_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const send = (event: string, data: object) =>
          res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
        send("message_start", {
          message: {
            id: "m",
            type: "message",
            role: "assistant",
            content: [],
            usage: { input_tokens: 3, output_tokens: 0 },
          },
        });
        send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
        send("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Half an ans" } });
        send("error", { error: { type: "api_error", message: "Internal server error" } });
        res.end();
      },
    });
    const events = await stream();
    expect(textOf(events, "text")).toBe("Half an ans");
    const error = find(events, "error")?.error;
    expect(error).toMatchObject({ code: "server" });
    expect(error?.message).toContain("Internal server error");
    expect(events.filter((e) => e.type === "retry")).toEqual([]);
    model.assertDone();
  });

  it("shortens an HTML 502 page to its title", async () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>${"<p>nginx</p>".repeat(500)}</body></html>`;
    model.reply({ status: 502, body: page });
    const events = await stream(hello, { ...endpoint, maxRetries: 0 });
    const error = find(events, "error")?.error;
    expect(error).toMatchObject({ code: "server", status: 502 });
    expect(error?.message).toContain("502 Bad Gateway (HTML page)");
    expect(error?.message.length).toBeLessThan(500);
    model.assertDone();
  });

  it("ends with done/cancelled when the turn is cancelled mid-stream, and drops the connection", async () => {
    let dropped: () => void = () => {};
    const connectionDropped = new Promise<void>((resolve) => {
      dropped = resolve;
    });
    model.reply({
      // Text every 10 ms, never ending on its own: only the client going away stops it.
      handle: (_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const send = (event: string, data: object) =>
          res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
        send("message_start", {
          message: {
            id: "m",
            type: "message",
            role: "assistant",
            content: [],
            usage: { input_tokens: 3, output_tokens: 0 },
          },
        });
        send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
        const timer = setInterval(
          () => send("content_block_delta", { index: 0, delta: { type: "text_delta", text: "more " } }),
          10,
        );
        res.on("close", () => {
          clearInterval(timer);
          dropped();
        });
      },
    });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    for await (const event of createMessagesProvider(endpoint).stream(hello, { signal: controller.signal })) {
      events.push(event);
      if (events.filter((e) => e.type === "text").length === 3) controller.abort();
    }
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "cancelled" });
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    await connectionDropped;
    model.assertDone();
  });
});

describe("messages provider: connections", () => {
  it("ends with a network error, not a retry, when the connection breaks after text", async () => {
    model.reply({ text: "partial answer that breaks", chunkSize: 4, cutAfterChunks: 6 });
    const events = await stream();
    expect(textOf(events, "text").length).toBeGreaterThan(0);
    expect(find(events, "error")?.error).toMatchObject({ code: "network" });
    expect(find(events, "retry")).toBeUndefined();
    model.assertDone();
  });

  it("gives up on a silent stream after the idle timeout and retries it", async () => {
    model.reply({ hang: true }, { text: "awake" });
    const events = await stream(hello, { ...endpoint, streamIdleTimeoutMs: 200 });
    expect(find(events, "retry")?.reason).toContain("idle timeout");
    expect(textOf(events, "text")).toBe("awake");
    model.assertDone();
  });

  it("goes through the proxy HTTP_PROXY names", async () => {
    const proxied: string[] = [];
    const proxy = createServer();
    // undici tunnels through the proxy with CONNECT, plain-HTTP targets included.
    proxy.on("connect", (req, client, head) => {
      proxied.push(`${req.method} ${req.url}`);
      const [host, port] = (req.url ?? "").split(":");
      const upstream = connect(Number(port), host ?? "127.0.0.1", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    process.env.HTTP_PROXY = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    delete process.env.NO_PROXY;
    try {
      model.reply({ text: "via the proxy" });
      const events = await stream();
      expect(textOf(events, "text")).toBe("via the proxy");
      expect(proxied).toEqual([`CONNECT ${new URL(model.url).host}`]);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
    model.assertDone();
  });
});

describe("messages provider: models", () => {
  it("lists the endpoint's models with the key as x-api-key", async () => {
    const ids = await createMessagesProvider(endpoint).listModels({ signal: new AbortController().signal });
    expect(ids).toEqual(["claude-fake-1", "claude-fake-2"]);
    expect(model.modelListRequests[0]!.headers["x-api-key"]).toBe("sk-ant-test-secret-123");
  });
});
