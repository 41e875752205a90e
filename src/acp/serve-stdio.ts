import { Readable, Writable } from "node:stream";
import {
  type AgentApp,
  agent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk";

/**
 * Serves an agent on stdin/stdout until the editor closes stdin or a signal asks us to stop;
 * then runs `shutdown` and resolves with the exit code.
 */
export function serveStdio(app: AgentApp, shutdown: () => Promise<void> | void): Promise<number> {
  const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
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
