import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/providers/model-request.js";
import { createChatProvider } from "../src/providers/openai-chat.js";
import { backoffDelayMs, retryAfterMs } from "../src/providers/retry.js";
import type { ModelEndpoint, ProviderEvent } from "../src/providers/types.js";
import { type FakeModel, startFakeModel } from "./support/fake-model.js";

const request: ModelRequest = {
  system: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const out: ProviderEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}
const types = (events: ProviderEvent[]) => events.map((e) => e.type);
const errorOf = (events: ProviderEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== "error") throw new Error(`expected an error event, got ${JSON.stringify(last)}`);
  return last.error;
};

let model: FakeModel;
let endpoint: ModelEndpoint;
let sleeps: number[];
/** Records backoff waits instead of sleeping, so retry tests take milliseconds. */
const deps = () => ({ sleep: async (ms: number) => void sleeps.push(ms), random: () => 0 });
const stream = (ep: ModelEndpoint = endpoint, signal = new AbortController().signal) =>
  collect(createChatProvider(ep, deps()).stream(request, { signal }));

beforeEach(async () => {
  model = await startFakeModel();
  endpoint = { providerId: "fake", baseUrl: model.url, apiKey: "sk-test-secret-123", model: "fake-model" };
  sleeps = [];
});
afterEach(async () => {
  await model.close();
});

describe("chat provider: retries", () => {
  it("honours Retry-After on 429, announces the retry, then succeeds", async () => {
    model.reply(
      { status: 429, headers: { "retry-after": "2" }, body: { error: { message: "slow down" } } },
      { text: "ok" },
    );
    const events = await stream();
    expect(events[0]).toEqual({
      type: "retry",
      attempt: 1,
      delayMs: 2000,
      reason: "rate limited (HTTP 429)",
    });
    expect(sleeps).toEqual([2000]);
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    model.assertDone();
  });

  it("does not wait out a Retry-After beyond the cap; reports how long the server asked", async () => {
    model.reply({
      status: 429,
      headers: { "retry-after": "3600" },
      body: { error: { message: "daily quota" } },
    });
    const events = await stream();
    const error = errorOf(events);
    expect(error).toMatchObject({ code: "rate_limited", status: 429, retryable: true });
    expect(error.message).toContain("3600 s");
    expect(error.message).toContain("daily quota");
    expect(sleeps).toEqual([]);
    model.assertDone();
  });

  it("retries a 503 with jittered backoff, then streams the answer once", async () => {
    model.reply({ status: 503 }, { text: "recovered" });
    const events = await stream();
    expect(types(events)).toEqual(["retry", "text", "usage", "done"]);
    // random() = 0 gives the lower bound of the first backoff window: half of 500 ms.
    expect(sleeps).toEqual([250]);
    expect(model.requests).toHaveLength(2);
  });

  it("gives up after maxRetries and reports a server error", async () => {
    model.reply({ status: 500 }, { status: 502 }, { status: 500, body: { error: { message: "boom" } } });
    const events = await stream({ ...endpoint, maxRetries: 2 });
    expect(types(events)).toEqual(["retry", "retry", "error"]);
    expect(sleeps).toEqual([250, 500]);
    const error = errorOf(events);
    expect(error).toMatchObject({ code: "server", status: 500, retryable: true });
    expect(error.message).toContain("gave up after 2 retries");
    expect(error.message).toContain("boom");
    model.assertDone();
  });

  it("reports a closed port as an unreachable endpoint, naming the URL", async () => {
    const closed = await startFakeModel();
    await closed.close();
    const events = await stream({ ...endpoint, baseUrl: closed.url, maxRetries: 1 });
    expect(types(events)).toEqual(["retry", "error"]);
    const error = errorOf(events);
    expect(error.code).toBe("network");
    expect(error.message).toContain(closed.url);
    expect(error.message).toContain("connection refused");
    expect(error.message).toContain("fake-model");
  });

  it("retries once without stream_options when the endpoint rejects them, and remembers", async () => {
    model.reply(
      {
        status: 422,
        body: { detail: [{ loc: ["body", "stream_options"], msg: "Extra inputs are not permitted" }] },
        expect: (body) => expect(body.stream_options).toEqual({ include_usage: true }),
      },
      { text: "ok", expect: (body) => expect(body).not.toHaveProperty("stream_options") },
      { text: "again", expect: (body) => expect(body).not.toHaveProperty("stream_options") },
    );
    const provider = createChatProvider(endpoint, deps());
    const first = await collect(provider.stream(request, { signal: new AbortController().signal }));
    expect(types(first)).toEqual(["text", "done"]);
    await collect(provider.stream(request, { signal: new AbortController().signal }));
    model.assertDone();
  });

  it("times out a silent stream, retries it, then reports a timeout", async () => {
    model.reply({ hang: true }, { hang: true });
    const started = Date.now();
    const events = await stream({ ...endpoint, streamIdleTimeoutMs: 150, maxRetries: 1 });
    expect(types(events)).toEqual(["retry", "error"]);
    expect(errorOf(events)).toMatchObject({ code: "timeout", retryable: true });
    expect(errorOf(events).message).toContain("150 ms");
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("does not retry a stream that went silent after text was shown", async () => {
    model.reply({ text: "first part, then silence", chunkSize: 8, hangAfterChunks: 2 });
    model.reply({ text: "all the text, then silence", hangAfterText: true });
    const events = await stream({ ...endpoint, streamIdleTimeoutMs: 200 });
    expect(events[0]).toEqual({ type: "text", text: "first pa" });
    expect(types(events).slice(-1)).toEqual(["error"]);
    expect(errorOf(events)).toMatchObject({ code: "timeout", retryable: true });
    expect(types(events)).not.toContain("retry");
    expect(model.requests).toHaveLength(1);
    const second = await stream({ ...endpoint, streamIdleTimeoutMs: 200 });
    expect(types(second)).toEqual(["text", "text", "error"]);
    model.assertDone();
  });

  it("ends with done(cancelled) promptly when aborted mid-stream", async () => {
    model.reply({ text: "a long answer that trickles in slowly", chunkSize: 2, delayMs: 100 });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    const started = Date.now();
    for await (const event of createChatProvider(endpoint, deps()).stream(request, {
      signal: controller.signal,
    })) {
      events.push(event);
      if (event.type === "text") controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(1000);
    expect(types(events)).toEqual(["text", "done"]);
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "cancelled" });
  });

  it("ends with done(cancelled) when aborted during a backoff wait", async () => {
    model.reply({ status: 503, headers: { "retry-after": "30" } });
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    const started = Date.now();
    // Real sleep here: the abort must cut the 30 s wait short.
    for await (const event of createChatProvider(endpoint).stream(request, { signal: controller.signal })) {
      events.push(event);
      if (event.type === "retry") setTimeout(() => controller.abort(), 20);
    }
    expect(Date.now() - started).toBeLessThan(2000);
    expect(types(events)).toEqual(["retry", "done"]);
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "cancelled" });
  });

  it("never emits a half-received tool call when the connection drops mid-arguments", async () => {
    model.reply({
      toolCalls: [{ id: "c1", name: "write", arguments: { path: "a.txt", content: "x".repeat(200) } }],
      cutAfterChunks: 4,
    });
    const events = await stream({ ...endpoint, maxRetries: 0 });
    expect(types(events)).not.toContain("tool_calls");
    expect(errorOf(events)).toMatchObject({ code: "network", retryable: true });
    expect(errorOf(events).message).toMatch(/closed the connection|connection reset/);
  });

  it("retries a dropped tool-call stream and emits the call exactly once", async () => {
    model.reply(
      {
        toolCalls: [{ id: "broken", name: "write", arguments: { path: "a.txt" } }],
        chunkSize: 2,
        cutAfterChunks: 3,
      },
      { toolCalls: [{ id: "whole", name: "write", arguments: { path: "a.txt" } }] },
    );
    const events = await stream();
    expect(types(events)).toEqual(["retry", "tool_calls", "usage", "done"]);
    expect(events[1]).toEqual({
      type: "tool_calls",
      calls: [{ id: "whole", name: "write", arguments: '{"path":"a.txt"}' }],
    });
  });

  it("does not retry when the connection drops after text was shown", async () => {
    model.reply({ text: "partial answer that will be cut", chunkSize: 4, cutAfterChunks: 3 });
    const events = await stream();
    expect(types(events)).toEqual(["text", "text", "error"]);
    expect(errorOf(events).retryable).toBe(true);
    expect(model.requests).toHaveLength(1);
  });

  it("counts a server that accepts but never answers headers as idle", async () => {
    const sockets = new Set<import("node:net").Socket>();
    const server = createServer(() => {}).on("connection", (s) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const events = await stream({
        ...endpoint,
        baseUrl: `http://127.0.0.1:${port}/v1`,
        streamIdleTimeoutMs: 100,
        maxRetries: 0,
      });
      expect(errorOf(events)).toMatchObject({ code: "timeout" });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("retry helpers", () => {
  it("reads Retry-After as seconds, HTTP date or retry-after-ms", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "1.5" }), now)).toBe(1500);
    expect(retryAfterMs(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:07 GMT" }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "120", "retry-after": "9" }), now)).toBe(120);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
  });

  it("backs off exponentially within [half, full] of the window, capped at 30 s", () => {
    expect(backoffDelayMs({ attempt: 1, random: () => 0 })).toBe(250);
    expect(backoffDelayMs({ attempt: 3, random: () => 1 })).toBe(2000);
    expect(backoffDelayMs({ attempt: 20, random: () => 1 })).toBe(30_000);
  });
});
