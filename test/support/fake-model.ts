/**
 * A scripted fake model: a real `node:http` server on loopback that speaks each wire in
 * `FAKE_WIRES` (Chat Completions, Responses, ...) on its own route, with the same scripted
 * steps, so provider and turn-loop tests exercise real HTTP. Each wire validates the request
 * strictly; a problem fails `assertDone()`.
 *
 * ```ts
 * const model = await startFakeModel();
 * model.reply({ text: "Hello" }, { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] });
 * const provider = createProvider({ providerId: "fake", baseUrl: model.url, model: "fake-model", wire: "responses" });
 * // ... drive the code under test: each POST consumes the next step, in order ...
 * model.assertDone(); // every step consumed, no unexpected call, every `expect` passed
 * await model.close();
 * ```
 *
 * A POST with no step left is answered with HTTP 500 and recorded as an error, so a test that
 * calls the model more often than scripted fails at `assertDone()` even when the code under
 * test swallowed the 500.
 *
 * Adding a wire: write `fake-wire-<name>.ts` exporting a `FakeWire` and add it to `FAKE_WIRES`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { FakeWire } from "./fake-wire.js";
import { chatWire } from "./fake-wire-chat.js";
import { messagesWire } from "./fake-wire-messages.js";
import { responsesWire } from "./fake-wire-responses.js";

export { replyChunks } from "./fake-wire-chat.js";

/** The wires the fake model speaks, one route each. */
export const FAKE_WIRES: readonly FakeWire[] = [chatWire, responsesWire, messagesWire];

export interface FakeToolCall {
  /** Defaults to `call_fake_<n>`. */
  id?: string;
  name: string;
  /** An object is JSON-encoded; a string is sent verbatim (use it for malformed JSON, or a custom call's raw input). */
  arguments: string | object;
  /** Responses: a `custom_tool_call` whose input is `arguments` as raw text. */
  custom?: boolean;
}

export interface FakeUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
  /** Messages: of `prompt_tokens`, written to the cache (`cache_creation_input_tokens`). */
  cache_write_tokens?: number;
  reasoning_tokens?: number;
}

interface StepBase {
  /** Assert on the parsed request body; a throw is recorded and fails `assertDone()`. */
  expect?(body: ChatBody): void;
}

/** A successful streamed answer. Chunk order: role, reasoning, text, tool calls, finish, usage, [DONE]. */
export interface ReplyStep extends StepBase {
  text?: string;
  reasoning?: string;
  /** Responses: the reasoning item's `encrypted_content` (the item is sent even without `reasoning`). */
  encryptedReasoning?: string;
  /** Delta field carrying `reasoning` (default `reasoning_content`; vLLM ≥ 0.16 uses `reasoning`). */
  reasoningField?: "reasoning_content" | "reasoning";
  toolCalls?: FakeToolCall[];
  /** Usage chunk, sent only when the request asked for `include_usage`; `false` never sends one. */
  usage?: FakeUsage | false;
  /** Default: `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  /** Split text, reasoning and tool-call arguments into pieces of this many characters (default 16). */
  chunkSize?: number;
  /** Pause between SSE chunks. */
  delayMs?: number;
  /** Destroy the socket after this many SSE chunks (a connection cut mid-stream; chunk 1 is the role chunk). */
  cutAfterChunks?: number;
  /** With `cutAfterChunks`: end with a TCP RST instead of a FIN (undici reports both as UND_ERR_SOCKET). */
  reset?: boolean;
  /** Go silent after this many SSE chunks, keeping the connection open (an idle gap mid-stream). */
  hangAfterChunks?: number;
  /** Go silent right after the reasoning and text chunks (a model still "thinking" mid-answer). */
  hangAfterText?: boolean;
}

/** An HTTP error answer. An object body is sent as JSON, a string as `text/html` when it starts with `<`. */
export interface StatusStep extends StepBase {
  status: number;
  body?: string | object;
  headers?: Record<string, string>;
}

/** Send 200 and SSE headers, then nothing until the client gives up or `close()`. */
export interface HangStep extends StepBase {
  hang: true;
}

/** Each string is sent as one `data: <string>` event (include "[DONE]" yourself); then end or destroy. */
export interface RawStep extends StepBase {
  raw: string[];
  destroy?: boolean;
}

/** Full control over the answer; `body` is the parsed request (the stream of `req` is already read). */
export interface HandleStep extends StepBase {
  handle(req: IncomingMessage, res: ServerResponse, body: ChatBody): void | Promise<void>;
}

export type FakeStep = ReplyStep | StatusStep | HangStep | RawStep | HandleStep;

// biome-ignore lint/suspicious/noExplicitAny: request bodies are whatever the client sent
export type ChatBody = Record<string, any>;

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters as sent. */
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (`{}` for GET). */
  body: ChatBody;
  /** The client's port: requests over one kept-alive connection share it. */
  clientPort: number;
  /** The wire whose route was called (model-list and info requests: `chat`). */
  wire: FakeWire["wire"];
}

export interface FakeModel {
  /** Base URL to configure, e.g. `http://127.0.0.1:41234/v1`. */
  url: string;
  /** Every POST to a wire's route (`/v1/chat/completions`, `/v1/responses`, ...), in arrival order. */
  requests: RecordedRequest[];
  /** Every `GET /v1/models`. */
  modelListRequests: RecordedRequest[];
  /** Every request to a route where servers describe their models' windows (`ServerInfo`). */
  infoRequests: RecordedRequest[];
  /** Unexpected calls and failed `expect` callbacks, readable. */
  errors: string[];
  /** Append steps; each POST consumes the next one. */
  reply(...steps: FakeStep[]): void;
  /** Throws if a step is left, an unexpected call happened or an `expect` failed. */
  assertDone(): void;
  /** Destroys open connections and stops listening. */
  close(): Promise<void>;
}

export interface FakeModelOptions {
  /** Ids listed at `GET /v1/models` (default `["fake-model"]`). */
  models?: string[];
  /**
   * Loopback port to listen on (default: any free one). Pass the port of a closed fake model to
   * bring "the same server" back after a test made it refuse connections.
   */
  port?: number;
  /** What the server says about its models besides the model list; nothing by default. */
  info?: ServerInfo;
  /** Validate as OpenAI itself does: vendor fields and `reasoning_content` in history are errors. */
  strictOpenAI?: boolean;
  /**
   * Close every connection right after its response without `Connection: close` (llama.cpp's
   * server does), so a client that reuses the socket finds it dead.
   */
  closeAfterResponse?: boolean;
}

/**
 * Answers of the routes where local servers describe their models (sessions and `doctor` ask
 * them for the context window). A route left unset answers 404, as a server of another kind
 * does; requests to these routes are never an error.
 */
export interface ServerInfo {
  /** Extra fields on every `/v1/models` entry (vLLM `max_model_len`, OpenRouter `context_length`). */
  modelFields?: Record<string, unknown>;
  /** llama.cpp `GET /props`. */
  props?: object;
  /** Ollama `POST /api/show` and `GET /api/ps`. */
  ollamaShow?: object;
  ollamaPs?: object;
  /** LM Studio `GET /api/v0/models/<id>`. */
  lmStudio?: object;
}

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const models = options.models ?? ["fake-model"];
  const steps: FakeStep[] = [];
  const requests: RecordedRequest[] = [];
  const modelListRequests: RecordedRequest[] = [];
  const infoRequests: RecordedRequest[] = [];
  const info = options.info ?? {};
  const errors: string[] = [];
  const sockets = new Set<Socket>();
  let callCounter = 0;

  const server = createServer((req, res) => {
    if (options.closeAfterResponse) res.on("finish", () => req.socket.end());
    void handleRequest(req, res).catch((error: unknown) => {
      errors.push(`fake model handler failed: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    const raw = await readBody(req);
    const query = Object.fromEntries(url.searchParams);
    const record = {
      method: req.method ?? "",
      path,
      query,
      headers: req.headers,
      body: {} as ChatBody,
      clientPort: req.socket.remotePort ?? 0,
      wire: "chat" as FakeWire["wire"],
    };
    if (req.method === "GET" && path === "/v1/models") {
      modelListRequests.push(record);
      sendJson(res, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", owned_by: "fake", ...info.modelFields })),
      });
      return;
    }
    const described = infoRoute(info, req.method ?? "", path);
    if (described) {
      infoRequests.push({ ...record, body: raw ? (JSON.parse(raw) as ChatBody) : {} });
      if (described.answer) sendJson(res, 200, described.answer);
      else sendJson(res, 404, { error: "not found" });
      return;
    }
    const wire = FAKE_WIRES.find((candidate) => candidate.path === path);
    if (req.method !== "POST" || !wire) {
      errors.push(`unexpected call: ${req.method} ${req.url}`);
      sendJson(res, 404, { error: { message: `fake model: no route ${req.method} ${path}` } });
      return;
    }
    record.wire = wire.wire;
    try {
      record.body = JSON.parse(raw) as ChatBody;
    } catch {
      errors.push(`request body is not JSON: ${raw.slice(0, 200)}`);
    }
    requests.push(record);
    for (const problem of wire.validate(record.body, { strictOpenAI: options.strictOpenAI === true }))
      errors.push(`${wire.wire} request #${requests.length}: ${problem}`);
    const step = steps.shift();
    if (!step) {
      errors.push(`unexpected call #${requests.length}: no scripted step left`);
      sendJson(res, 500, { error: { message: "fake model: no scripted step left" } });
      return;
    }
    try {
      step.expect?.(record.body);
    } catch (error) {
      errors.push(`expect failed on call #${requests.length}: ${(error as Error).message}`);
    }
    await serveStep(step, req, res, record.body, wire);
  }

  async function serveStep(
    step: FakeStep,
    req: IncomingMessage,
    res: ServerResponse,
    body: ChatBody,
    wire: FakeWire,
  ) {
    if ("handle" in step) return step.handle(req, res, body);
    if ("status" in step) return sendStatus(res, step);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.flushHeaders();
    if ("hang" in step) return;
    if ("raw" in step) {
      for (const line of step.raw) res.write(`data: ${line}\n\n`);
      if (step.destroy) await cut(res);
      else res.end();
      return;
    }
    const events = wire.events(step, body, () => `call_fake_${++callCounter}`);
    const hangAt = step.hangAfterText ? afterText(events) : step.hangAfterChunks;
    let sent = 0;
    for (const { event, data } of events) {
      if (res.destroyed) return;
      if (sent === step.cutAfterChunks) return cut(res, step.reset);
      if (sent === hangAt) return;
      if (step.delayMs && sent > 0) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
      res.write(`${event ? `event: ${event}\n` : ""}data: ${data}\n\n`);
      sent++;
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    modelListRequests,
    infoRequests,
    errors,
    reply: (...more) => {
      steps.push(...more);
    },
    assertDone: () => {
      const problems = [...errors];
      if (steps.length > 0) problems.push(`${steps.length} scripted step(s) never requested`);
      if (problems.length > 0) throw new Error(`fake model: ${problems.join("; ")}`);
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The model-description route `method path` is, with its scripted answer; undefined for other routes. */
function infoRoute(info: ServerInfo, method: string, path: string): { answer?: object } | undefined {
  if (method === "GET" && path === "/props") return { answer: info.props };
  if (method === "POST" && path === "/api/show") return { answer: info.ollamaShow };
  if (method === "GET" && path === "/api/ps") return { answer: info.ollamaPs };
  if (method === "GET" && path.startsWith("/api/v0/models/")) return { answer: info.lmStudio };
  return undefined;
}

/** How many events go out before the first one after the streamed text and reasoning. */
function afterText(events: Array<{ event?: string; data: string }>): number {
  const TEXT =
    /"(content|reasoning_content|reasoning)":"|output_text\.delta|reasoning_summary_text\.delta|reasoning_text\.delta|text_delta|thinking_delta/;
  let last = 0;
  for (const [i, { event, data }] of events.entries()) if (TEXT.test(`${event ?? ""} ${data}`)) last = i;
  return last + 1;
}

/**
 * Destroys the connection once what was written reached the socket (destroy drops unflushed
 * data); `reset` ends it with a TCP RST, as a crashed proxy or a dropped NAT entry does.
 */
async function cut(res: ServerResponse, reset = false): Promise<void> {
  await new Promise<void>((resolve) => res.write("", () => resolve()));
  if (reset) res.socket?.resetAndDestroy();
  else res.destroy();
}

function sendStatus(res: ServerResponse, step: StatusStep): void {
  const body = step.body ?? { error: { message: `fake model error ${step.status}` } };
  const isText = typeof body === "string";
  const type = !isText ? "application/json" : body.trimStart().startsWith("<") ? "text/html" : "text/plain";
  res.writeHead(step.status, { "content-type": type, ...step.headers });
  res.end(isText ? body : JSON.stringify(body));
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
