import type { Duplex } from "node:stream";
import { Readable, Writable } from "node:stream";
import { type AgentApp, ndJsonStream, type Stream } from "@agentclientprotocol/sdk/unstable";
import type { Logger } from "../config/logger.js";
import type { SessionManager } from "../sessions/session-manager.js";
import { createAgentApp } from "./agent-app.js";
import { limitLines } from "./line-limit.js";

/**
 * Where one of our own clients (exec, the terminal chat, app-server, mcp-server) finds the
 * agent: built in this process on a `SessionManager`, or at the far end of a connection to the
 * shared daemon (a socket from `connectOrStart`). Either way the client speaks ACP to the same
 * agent the editors use, so the two modes never take different paths into the sessions.
 */
export type AgentLink = { manager: SessionManager; logger: Logger } | { socket: Duplex };

/** What the SDK client connects to for `link`: the agent app itself, or the socket framed as on stdio. */
export function agentTarget(link: AgentLink, version: string): AgentApp | Stream {
  if ("socket" in link) {
    const { socket } = link;
    // A daemon that dies closes the socket: the SDK rejects what is pending, never the process.
    socket.on("error", () => {});
    const input = limitLines(Readable.toWeb(socket) as ReadableStream<Uint8Array>);
    return ndJsonStream(Writable.toWeb(socket) as WritableStream<Uint8Array>, input);
  }
  return createAgentApp({ manager: link.manager, logger: link.logger, version });
}
