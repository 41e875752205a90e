import type { Readable, Writable } from "node:stream";

/** A protocol error the client sees as a JSON-RPC error object. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export type RequestHandler = (method: string, params: unknown) => Promise<unknown>;

export interface RpcPeer {
  notify(method: string, params: Record<string, unknown>): void;
  /** A server→client request (approvals); resolves with its result, rejects on an error answer. */
  request(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** Resolves when the client closes stdin. */
  closed: Promise<void>;
}

/**
 * Codex's app-server framing: one JSON object per line, without the `jsonrpc` member (Codex
 * leaves it out; its clients accept either). Requests are answered in any order; a handler's
 * failure becomes an error answer, never a crash.
 */
export function serveLines(options: {
  input: Readable;
  output: Writable;
  onRequest: RequestHandler;
  onNotification(method: string, params: unknown): void;
  onBadLine(line: string): void;
}): RpcPeer {
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 0;
  const send = (message: Record<string, unknown>) => options.output.write(`${JSON.stringify(message)}\n`);
  const answer = async (id: unknown, method: string, params: unknown) => {
    try {
      send({ id, result: (await options.onRequest(method, params)) ?? {} });
    } catch (error) {
      const code = error instanceof RpcError ? error.code : -32603;
      send({ id, error: { code, message: error instanceof Error ? error.message : String(error) } });
    }
  };
  let buffer = "";
  const closed = new Promise<void>((resolve) => {
    options.input.on("end", resolve);
    options.input.on("close", resolve);
  });
  options.input.setEncoding("utf8");
  options.input.on("data", (chunk: string) => {
    buffer += chunk;
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
      if (!line) continue;
      let message: { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
      try {
        message = JSON.parse(line);
      } catch {
        options.onBadLine(line);
        continue;
      }
      if (typeof message.method === "string") {
        if (message.id !== undefined && message.id !== null)
          void answer(message.id, message.method, message.params);
        else options.onNotification(message.method, message.params);
        continue;
      }
      const waiter = typeof message.id === "number" ? pending.get(message.id) : undefined;
      if (!waiter) continue;
      pending.delete(message.id as number);
      if (message.error) waiter.reject(new Error((message.error as { message?: string }).message ?? "error"));
      else waiter.resolve(message.result);
    }
  });
  void closed.then(() => {
    for (const waiter of pending.values()) waiter.reject(new Error("client closed the connection"));
    pending.clear();
  });
  return {
    notify: (method, params) => send({ method, params }),
    request(method, params) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ id, method, params });
      });
    },
    closed,
  };
}
