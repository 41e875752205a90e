import { Readable, Writable } from "node:stream";
import {
  type AgentApp,
  agent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk";
import { limitLines, MAX_LINE_BYTES } from "./line-limit.js";

/**
 * Serves an agent on stdin/stdout until the editor closes stdin or a signal asks us to stop;
 * then runs `shutdown` and resolves with the exit code.
 */
export function serveStdio(app: AgentApp, shutdown: () => Promise<void> | void): Promise<number> {
  const input = limitLines(Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, {
    onOversized: (bytes) =>
      process.stderr.write(`interpreter: dropped a ${bytes}-byte message (over the line limit)\n`),
  });
  // The SDK's own limit sits above ours, so it never sees an over-long line and never closes.
  const connection = app.connect(
    ndJsonStream(Writable.toWeb(process.stdout), input, { maxMessageBytes: MAX_LINE_BYTES * 2 }),
  );
  return new Promise((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void Promise.resolve(shutdown()).finally(() => resolve(0));
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    void connection.closed.then(stop, stop);
  });
}

/** An agent that initializes but fails every other request with `message` (e.g. a config error). */
export function createFailingAgent(options: { message: string; version: string }): AgentApp {
  return agent({ name: "openinterpreter" })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {},
      agentInfo: { name: "openinterpreter", title: "Open Interpreter", version: options.version },
      authMethods: [],
    }))
    .onRequest("*", () => {
      throw new RequestError(-32603, options.message);
    });
}
