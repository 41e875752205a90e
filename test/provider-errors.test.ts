import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/providers/model-request.js";
import { createChatProvider } from "../src/providers/openai-chat.js";
import type { ModelEndpoint, ProviderError, ProviderEvent } from "../src/providers/types.js";
import { type FakeModel, type FakeStep, startFakeModel } from "./support/fake-model.js";

const request: ModelRequest = {
  system: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  tools: [],
};
const API_KEY = "sk-test-secret-123";

let model: FakeModel;
let endpoint: ModelEndpoint;

beforeEach(async () => {
  model = await startFakeModel({ models: ["qwen3-coder", "gpt-oss-20b"] });
  endpoint = {
    providerId: "local",
    baseUrl: model.url,
    apiKey: API_KEY,
    model: "qwen3-coder",
    maxRetries: 0,
  };
});
afterEach(async () => {
  await model.close();
});

/** Streams one request against `step` and returns its final event, which must be an error. */
async function failWith(step: FakeStep, ep: ModelEndpoint = endpoint): Promise<ProviderError> {
  model.reply(step);
  const events: ProviderEvent[] = [];
  for await (const event of createChatProvider(ep).stream(request, {
    signal: new AbortController().signal,
  })) {
    events.push(event);
  }
  expect(events.filter((e) => e.type === "error" || e.type === "done")).toHaveLength(1);
  const last = events.at(-1);
  if (last?.type !== "error") throw new Error(`expected an error, got ${JSON.stringify(last)}`);
  expect(last.error.message).not.toContain(API_KEY);
  return last.error;
}

describe("chat provider: error messages", () => {
  it("401: names endpoint, model and status, says the key was rejected, never echoes the key", async () => {
    const error = await failWith({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${API_KEY}`, type: "invalid_request_error" } },
    });
    expect(error).toMatchObject({ code: "auth", status: 401, retryable: false });
    expect(error.message).toContain(model.url);
    expect(error.message).toContain("'qwen3-coder'");
    expect(error.message).toContain("HTTP 401");
    expect(error.message).toContain("API key was rejected");
    expect(error.message).toContain("Incorrect API key provided: [redacted]");
  });

  it("404: says the model is unknown or the base URL is wrong", async () => {
    const error = await failWith({
      status: 404,
      body: { error: { message: "model 'qwen3-coder' not found" } },
    });
    expect(error).toMatchObject({ code: "not_found", status: 404 });
    expect(error.message).toContain("model 'qwen3-coder' not found or wrong base URL");
  });

  it.each([
    ["Ollama", 400, { error: "registry.ollama.ai/library/gemma2:2b does not support tools" }],
    [
      "llama.cpp without --jinja",
      500,
      { error: { code: 500, message: "tools param requires --jinja flag" } },
    ],
    ["llama.cpp (older)", 400, { error: { message: "Unsupported param: tools" } }],
    [
      "vLLM without a tool parser",
      400,
      { message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set' },
    ],
  ])("%s rejecting tools → tools_unsupported, not retried", async (_name, status, body) => {
    const error = await failWith({ status, body }, { ...endpoint, maxRetries: 3 });
    expect(error.code).toBe("tools_unsupported");
    expect(error.message).toContain("does not accept tool definitions");
    expect(model.requests).toHaveLength(1);
  });

  it("a 400 about tool_calls adjacency is a bad request, not tools_unsupported", async () => {
    const message =
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'.";
    const error = await failWith({ status: 400, body: { error: { message } } });
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain(message);
  });

  it("context overflow → context_length", async () => {
    const message =
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.";
    const error = await failWith({
      status: 400,
      body: { error: { message, code: "context_length_exceeded" } },
    });
    expect(error).toMatchObject({ code: "context_length", status: 400, retryable: false });
    expect(error.message).toContain("9001 tokens");
  });

  it("keeps vLLM's top-level message and FastAPI's detail", async () => {
    const vllm = await failWith({
      status: 400,
      body: { object: "error", message: "temperature must be >= 0", code: 400 },
    });
    expect(vllm.message).toContain("temperature must be >= 0");
    const fastapi = await failWith({
      status: 422,
      body: { detail: [{ loc: ["body", "messages"], msg: "field required" }] },
    });
    expect(fastapi).toMatchObject({ code: "bad_request", status: 422 });
    expect(fastapi.message).toContain("field required");
  });

  it("shortens an HTML error page to its title", async () => {
    const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head><body><h1>502 Bad Gateway</h1>${"<p>filler</p>".repeat(500)}<hr>nginx</body></html>`;
    const error = await failWith({ status: 502, body: page });
    expect(error).toMatchObject({ code: "server", status: 502, retryable: true });
    expect(error.message).toContain("502 Bad Gateway (HTML page)");
    expect(error.message).not.toContain("<");
    expect(error.message.length).toBeLessThan(400);
  });

  it("an error object inside the stream ends it with a server error", async () => {
    const error = await failWith({
      raw: [JSON.stringify({ error: { message: "upstream provider overloaded", code: 502 } })],
    });
    expect(error.code).toBe("server");
    expect(error.message).toContain("upstream provider overloaded");
  });

  it("an unparseable chunk is a protocol error", async () => {
    const error = await failWith({ raw: ["{not json"] });
    expect(error).toMatchObject({ code: "protocol", retryable: false });
    expect(error.message).toContain("unparseable chunk");
  });

  it("a 200 that is not an event stream is a protocol error naming the content type", async () => {
    const error = await failWith({
      handle: (_req, res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html><body>Welcome to my web UI</body></html>");
      },
    });
    expect(error.code).toBe("protocol");
    expect(error.message).toContain("content-type text/html");
  });

  it("does not leak secret header values the server echoes", async () => {
    const error = await failWith(
      { status: 403, body: { error: { message: "token tok-abcdefgh123 is not allowed" } } },
      { ...endpoint, headers: { "X-Api-Token": "tok-abcdefgh123" } },
    );
    expect(error.code).toBe("auth");
    expect(error.message).toContain("token [redacted] is not allowed");
    expect(model.requests[0]!.headers["x-api-token"]).toBe("tok-abcdefgh123");
  });

  it("explains a base URL with embedded credentials without repeating them", async () => {
    const url = new URL(model.url);
    url.username = "user";
    url.password = "hunter2hunter2";
    const events: ProviderEvent[] = [];
    const provider = createChatProvider({ ...endpoint, baseUrl: url.toString() });
    for await (const event of provider.stream(request, { signal: new AbortController().signal }))
      events.push(event);
    const last = events.at(-1);
    expect(last?.type === "error" && last.error.code).toBe("network");
    const message = last?.type === "error" ? last.error.message : "";
    expect(message).toContain("includes credentials");
    expect(message).not.toContain("hunter2");
    expect(message).not.toContain("user:");
  });
});

describe("chat provider: listModels", () => {
  const signal = () => new AbortController().signal;

  it("lists the ids the endpoint serves, sending the key", async () => {
    expect(await createChatProvider(endpoint).listModels({ signal: signal() })).toEqual([
      "qwen3-coder",
      "gpt-oss-20b",
    ]);
    expect(model.modelListRequests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    model.assertDone();
  });

  it("rejects with a network error when the endpoint is down", async () => {
    const closed = await startFakeModel();
    await closed.close();
    const listing = createChatProvider({ ...endpoint, baseUrl: closed.url }).listModels({ signal: signal() });
    await expect(listing).rejects.toMatchObject({
      code: "network",
      message: expect.stringContaining(closed.url),
    });
  });

  it("rejects with not_found when the base URL is wrong", async () => {
    const wrong = model.url.replace(/\/v1$/, "");
    const listing = createChatProvider({ ...endpoint, baseUrl: wrong }).listModels({ signal: signal() });
    await expect(listing).rejects.toMatchObject({ code: "not_found", status: 404 });
    expect(model.errors).toEqual(["unexpected call: GET /models"]);
  });

  it("rejects with the caller's reason when aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("user gave up"));
    await expect(createChatProvider(endpoint).listModels({ signal: controller.signal })).rejects.toThrow(
      "user gave up",
    );
  });

  it("sends custom headers and query params; no Authorization without a key", async () => {
    const listing = createChatProvider({
      ...endpoint,
      apiKey: undefined,
      headers: { "x-api-token": "tok-abcdefgh123" },
      queryParams: { "api-version": "2024-10-21" },
    }).listModels({ signal: signal() });
    expect(await listing).toEqual(["qwen3-coder", "gpt-oss-20b"]);
    const sent = model.modelListRequests[0]!;
    expect(sent.headers["x-api-token"]).toBe("tok-abcdefgh123");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.query).toEqual({ "api-version": "2024-10-21" });
  });

  it("401: rejects with auth, names the endpoint and status, never the key", async () => {
    const server = await answerModels(401, JSON.stringify({ error: { message: `bad key ${API_KEY}` } }));
    try {
      const error = await listingError({ ...endpoint, baseUrl: server.url });
      expect(error).toMatchObject({ code: "auth", status: 401 });
      expect(error.message).toContain(server.url);
      expect(error.message).toContain("HTTP 401");
      expect(error.message).toContain("API key was rejected");
      expect(error.message).not.toContain(API_KEY);
      expect(server.seen[0]!.authorization).toBe(`Bearer ${API_KEY}`);
    } finally {
      await server.close();
    }
  });

  it("rejects with a protocol error when the list is not JSON", async () => {
    const server = await answerModels(200, "<html>captive portal</html>");
    try {
      const listing = createChatProvider({ ...endpoint, baseUrl: server.url }).listModels({
        signal: signal(),
      });
      await expect(listing).rejects.toMatchObject({
        code: "protocol",
        message: expect.stringContaining("the model list is not JSON"),
      });
    } finally {
      await server.close();
    }
  });

  it("explains a base URL with embedded credentials without repeating them", async () => {
    const url = new URL(model.url);
    url.username = "user";
    url.password = "hunter2hunter2";
    const error = await listingError({ ...endpoint, baseUrl: url.toString() });
    expect(error.code).toBe("network");
    expect(error.message).toContain("includes credentials");
    expect(error.message).not.toContain("hunter2");
    expect(model.modelListRequests).toHaveLength(0);
  });
});

/** The rejection of a model listing that must fail. */
async function listingError(ep: ModelEndpoint): Promise<ProviderError> {
  try {
    await createChatProvider(ep).listModels({ signal: new AbortController().signal });
  } catch (error) {
    return error as ProviderError;
  }
  throw new Error("expected the model listing to fail");
}

/** A loopback server answering `GET /v1/models` with a fixed status and body (the fake model always lists). */
async function answerModels(status: number, body: string) {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(status, { "content-type": body.startsWith("{") ? "application/json" : "text/html" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
