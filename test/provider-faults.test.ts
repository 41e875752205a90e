import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/providers/model-request.js";
import { createChatProvider } from "../src/providers/openai-chat.js";
import type { ModelEndpoint, ProviderEvent } from "../src/providers/types.js";
import { type FakeModel, type FakeStep, startFakeModel } from "./support/fake-model.js";

// The endpoint faults of test/reliability/endpoint-faults.test.ts at the provider, through the
// SDK: the words the editor gets and how often each is retried. No backoff waits.

const KEY = "sk-faults-secret-123";
const hi: ModelRequest = {
  system: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};
const HTML_502 = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>`;

let model: FakeModel;
beforeEach(async () => {
  model = await startFakeModel();
});
afterEach(async () => {
  await model.close();
});

async function run(ep: Partial<ModelEndpoint> = {}): Promise<ProviderEvent[]> {
  const endpoint = {
    providerId: "openai",
    baseUrl: model.url,
    apiKey: KEY,
    model: "m",
    maxRetries: 2,
    streamIdleTimeoutMs: 400,
    ...ep,
  };
  const out: ProviderEvent[] = [];
  for await (const event of createChatProvider(endpoint, { sleep: async () => {} }).stream(hi, {
    signal: new AbortController().signal,
  }))
    out.push(event);
  return out;
}
const retries = (events: ProviderEvent[]) => events.filter((e) => e.type === "retry").length;
const message = (events: ProviderEvent[]) => {
  const last = events.at(-1);
  return last?.type === "error" ? last.error.message : `no error: ${JSON.stringify(last)}`;
};

describe("endpoint faults through the SDK", () => {
  it.each<[string, FakeStep[], number, RegExp]>([
    [
      "429 asking to wait an hour",
      [
        {
          status: 429,
          headers: { "retry-after": "3600" },
          body: { error: { message: "You exceeded your current quota" } },
        },
      ],
      0,
      /HTTP 429: rate limited.*3600 s.*exceeded your current quota/,
    ],
    [
      "429 without Retry-After",
      [{ status: 429 }, { status: 429 }, { status: 429 }],
      2,
      /HTTP 429: rate limited.*gave up after 2 retries/,
    ],
    [
      "500 echoing the key",
      Array.from({ length: 3 }, () => ({
        status: 500,
        body: { error: { message: `upstream failed for key ${KEY}` } },
      })),
      2,
      /HTTP 500: the server failed.*upstream failed for key \[redacted\].*gave up after 2 retries/,
    ],
    [
      "502 HTML",
      [
        { status: 502, body: HTML_502 },
        { status: 502, body: HTML_502 },
        { status: 502, body: HTML_502 },
      ],
      2,
      /HTTP 502: the server failed\. Server said: 502 Bad Gateway \(HTML page\)/,
    ],
    [
      "200 with an HTML page",
      [
        {
          handle: (_req, res) => {
            res.writeHead(200, { "content-type": "text/html" });
            res.end("<html><head><title>Sign in</title></head><body>Sign in</body></html>");
          },
        },
      ],
      0,
      /not a chat-completions stream.*text\/html/,
    ],
    [
      "a reset after text was shown",
      [{ text: "a partial answer that is cut", chunkSize: 4, cutAfterChunks: 3, reset: true }],
      0,
      /connection (lost|reset)/,
    ],
    [
      "a cut after text, FIN",
      [{ text: "a partial answer that is cut", chunkSize: 4, cutAfterChunks: 3 }],
      0,
      /connection lost mid-response|server closed the connection/,
    ],
    [
      "an endless silent stream",
      [{ hang: true }, { hang: true }, { hang: true }],
      2,
      /no data for 400 ms \(stream idle timeout\).*gave up after 2 retries/,
    ],
    [
      "accepted, never answered",
      [{ handle: () => {} }, { handle: () => {} }, { handle: () => {} }],
      2,
      /no data for 400 ms \(stream idle timeout\).*gave up after 2 retries/,
    ],
    [
      "silence after text",
      [{ text: "thinking about it", hangAfterText: true }],
      0,
      /no data for 400 ms \(stream idle timeout\)/,
    ],
  ])("%s", async (_name, steps, retried, words) => {
    model.reply(...steps);
    const events = await run();
    expect(message(events)).toMatch(words);
    expect(message(events)).not.toContain(KEY);
    expect(retries(events)).toBe(retried);
    model.assertDone();
  });

  it("a reset before any output is retried once and the answer is shown once", async () => {
    model.reply({ text: "never seen", cutAfterChunks: 1, reset: true }, { text: "recovered" });
    const events = await run();
    expect(events.map((e) => (e.type === "text" ? e.text : "")).join("")).toBe("recovered");
    expect(retries(events)).toBe(1);
  });

  it("connection refused: names the endpoint and the system error, retried", async () => {
    const port = new URL(model.url).port;
    await model.close();
    const events = await run({ baseUrl: `http://127.0.0.1:${port}/v1` });
    expect(message(events)).toMatch(
      /Cannot reach openai at http:\/\/127\.0\.0\.1:\d+\/v1.*connection refused \(ECONNREFUSED\).*gave up after 2 retries/,
    );
    model = await startFakeModel();
  });

  it("finish_reason sent, then the stream left open: the answer counts once the idle wait ends", async () => {
    model.reply({
      handle: (_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "whole" }, finish_reason: "stop" }] })}\n\n`,
        );
      },
    });
    const events = await run({ streamIdleTimeoutMs: 300 });
    expect(events.map((e) => (e.type === "text" ? e.text : "")).join("")).toBe("whole");
    expect(events.at(-1)).toEqual({ type: "done", finishReason: "stop" });
    expect(retries(events)).toBe(0);
  });
});
