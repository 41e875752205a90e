import type { Duplex } from "node:stream";
import { Readable, Writable } from "node:stream";
import type { AgentApp } from "@agentclientprotocol/sdk/unstable";
import { limitLines } from "./line-limit.js";
import { type MessageStream, messageStream } from "./message-stream.js";

/**
 * Serves an agent over one duplex byte stream (a window's connection to the shared daemon),
 * framed exactly as on stdio: line limit, our message stream in front of the SDK. Resolves
 * `closed` once the connection is over (the peer left or the stream failed); the socket is
 * destroyed then, so a peer half-closing does not keep it open.
 */
export function serveConnection(options: {
  socket: Duplex;
  makeApp: (output: Pick<MessageStream, "drained">) => AgentApp;
  /** Input refused and output that could not be serialized (for the log). */
  onProblem: (problem: string) => void;
}): { closed: Promise<void> } {
  const { socket, onProblem } = options;
  // A write to a peer that has gone must end this connection, never the daemon.
  socket.on("error", () => {});
  const input = limitLines(Readable.toWeb(socket) as ReadableStream<Uint8Array>, {
    onOversized: (bytes) => onProblem(`dropped a ${bytes}-byte message (over the line limit)`),
  });
  const stream = messageStream({ input, output: Writable.toWeb(socket), onProblem });
  const connection = options.makeApp(stream).connect(stream);
  const closed = connection.closed.then(() => {
    socket.destroy();
  });
  return { closed };
}
