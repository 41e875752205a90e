import type { AnyMessage, Stream } from "@agentclientprotocol/sdk/unstable";

/** Deeper than this, a message is refused before any handler (or `JSON.stringify`) recurses into it. */
export const MAX_NESTING = 256;

/** Characters of output waiting to be written past which a sender waits for the editor to read. */
const MAX_UNWRITTEN = 1 << 20;

export interface MessageStreamOptions {
  /** One line per chunk, as `limitLines` hands them out. */
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  maxNesting?: number;
  /** Told about input we refused and output we could not serialize (for stderr and the log). */
  onProblem?: (problem: string) => void;
}

type Json = Record<string, unknown>;

export interface MessageStream extends Stream {
  /**
   * Resolves once everything sent so far has been written to `output` (or could not be):
   * for work that should not compete with a reply still on its way to the editor.
   */
  drained(): Promise<void>;
}

/**
 * The SDK's `ndJsonStream`, owned here so that no single line can end the connection: a line
 * that is not JSON gets -32700, a batch or a scalar -32600, a message nested past
 * `maxNesting` -32600 (with its id, so a request is still answered exactly once), and an
 * outgoing message that cannot be serialized is replaced by an error response (or dropped,
 * for a notification) instead of failing the write, which would close the connection.
 * A failing write to `output` (the editor closed stdout) ends the connection.
 */
export function messageStream(options: MessageStreamOptions): MessageStream {
  const maxNesting = options.maxNesting ?? MAX_NESTING;
  const problem = options.onProblem ?? (() => {});
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const writer = options.output.getWriter();
  // Lines are batched per turn of the event loop: replaying a long session is thousands of
  // updates, and a write each cost more than everything else `session/load` does. Order is kept
  // (one chain of writes); a failed write fails every later one and ends the connection.
  let pending: string[] = [];
  /** Characters serialized and not yet taken by `output` (pending or being written). */
  let unwritten = 0;
  let written: Promise<void> = Promise.resolve();
  let batch: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  let fail: (error: unknown) => void = () => {};
  const flush = (): Promise<void> => {
    // Nothing left when `close` or `drained` flushed before the scheduled batch ran.
    if (pending.length === 0) return written;
    const text = pending.join("");
    pending = [];
    batch = undefined;
    written = written
      .then(() => writer.write(encoder.encode(text)))
      .then(() => {
        unwritten -= text.length;
      });
    written.catch((error: unknown) => {
      failure ??= { error };
      fail(error);
    });
    return written;
  };
  const write = (message: Json): Promise<void> => {
    if (failure) return Promise.reject(failure.error);
    const line = serialize(message, problem);
    if (line === undefined) return Promise.resolve();
    pending.push(line);
    unwritten += line.length;
    if (batch === undefined) {
      batch = new Promise<void>((resolve) => setImmediate(resolve)).then(flush);
      batch.catch(() => {}); // seen through `fail` and the next write
    }
    // An editor that does not read holds the sender back once this much waits (backpressure):
    // the batch's promise resolves when everything up to it has been written.
    return unwritten >= MAX_UNWRITTEN ? batch : Promise.resolve();
  };
  const answer = (error: { code: number; message: string }, id: unknown = null) =>
    write({ jsonrpc: "2.0", id, error }).catch(() => {});

  const reader = options.input.getReader();
  let cancelled = false;
  const readable = new ReadableStream<AnyMessage>({
    async start(controller) {
      // A failed write (the editor closed stdout) ends the connection even when nothing more
      // is sent: the SDK closes it with this error, as with a failed send.
      fail = (error) => {
        if (!cancelled) controller.error(error);
      };
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done || cancelled) break;
          const text = decoder.decode(value).trim();
          if (!text) continue;
          let message: unknown;
          try {
            message = JSON.parse(text);
          } catch {
            await answer({ code: -32700, message: "Parse error" });
            continue;
          }
          if (Array.isArray(message)) {
            await answer({ code: -32600, message: "Invalid request: JSON-RPC batches are not supported" });
          } else if (typeof message !== "object" || message === null) {
            await answer({
              code: -32600,
              message: `Invalid request: expected an object, got ${kind(message)}`,
            });
          } else if (nestedDeeperThan(message, maxNesting)) {
            problem(`refused a message nested deeper than ${maxNesting} levels`);
            // Answered as the SDK would answer any invalid message: requests with their id,
            // notifications and responses never, anything else with id null.
            const shape = shapeOf(message as Json);
            const refusal = {
              code: -32600,
              message: `Invalid request: nested deeper than ${maxNesting} levels`,
            };
            if (shape === "request") await answer(refusal, (message as Json).id);
            else if (shape === "other") await answer(refusal);
          } else controller.enqueue(message as AnyMessage);
        }
        if (!cancelled) controller.close();
      } catch (error) {
        if (!cancelled) controller.error(error);
      } finally {
        reader.releaseLock();
      }
    },
    // The connection closed (e.g. stdout is gone): stop reading stdin.
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
  // What the SDK writes to. It takes a writer per message (`getWriter`, `write`, `releaseLock`:
  // SDK 2.4 core/jsonrpc.js `sendMessage`), and a real WritableStream makes that cost promises
  // and, on every release, two rejected ones carrying fresh TypeErrors, which adds up when a long
  // session is replayed. Writes are queued by `write` above alone.
  const sink = {
    write: (message: AnyMessage) => write(message as Json),
    releaseLock: () => {},
    close: () => (pending.length > 0 ? flush() : written).then(() => writer.close()),
  };
  const writable = { getWriter: () => sink } as unknown as WritableStream<AnyMessage>;
  const drained = () => flush().catch(() => {});
  return { readable, writable, drained };
}

/** The line for `message`, or a stand-in error response when it cannot be serialized. */
function serialize(message: Json, problem: (text: string) => void): string | undefined {
  try {
    return `${JSON.stringify(message)}\n`;
  } catch (error) {
    const isResponse = "id" in message && ("result" in message || "error" in message);
    problem(`could not serialize an outgoing ${isResponse ? "response" : "message"}: ${String(error)}`);
    if (!isResponse) return undefined;
    const id = isId(message.id) ? message.id : null;
    const error32603 = { code: -32603, message: "Internal error: the response could not be serialized" };
    return `${JSON.stringify({ jsonrpc: "2.0", id, error: error32603 })}\n`;
  }
}

/** The SDK's classification of an incoming object (`jsonrpc.js`: isRequestMessage and friends). */
function shapeOf(message: Json): "request" | "notification" | "response" | "other" {
  const hasMethod = "method" in message;
  if (!hasMethod) return "id" in message || "result" in message || "error" in message ? "response" : "other";
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string") return "other";
  if (!("id" in message)) return "notification";
  return message.id === null || isId(message.id) ? "request" : "other";
}

function isId(value: unknown): value is string | number {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function kind(value: unknown): string {
  return value === null ? "null" : typeof value;
}

/** Iterative, so a 100,000-level message costs a loop, not the stack. */
function nestedDeeperThan(root: object, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > limit) return true;
    const children = Array.isArray(value) ? value : Object.values(value as object);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
