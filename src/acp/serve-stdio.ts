import { Readable, Writable } from "node:stream";
import {
  type AgentApp,
  agent,
  methods,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk/unstable";
import { limitLines } from "./line-limit.js";
import { type MessageStream, messageStream } from "./message-stream.js";

/**
 * Serves an agent on stdin/stdout until the editor goes away (stdin EOF, or stdout closed:
 * EPIPE) or a signal asks us to stop; then runs `shutdown` and resolves with the exit code:
 * 0 when the editor left or a signal came, 1 when the connection failed for another reason
 * (said on stderr). No input line ends the connection (see `messageStream`).
 */
export function serveStdio(
  makeApp: (output: Pick<MessageStream, "drained">) => AgentApp,
  shutdown: () => Promise<void> | void,
): Promise<number> {
  const say = (text: string) => {
    process.stderr.write(`interpreter: ${text}\n`);
  };
  // A closed stderr must not turn every later diagnostic into an uncaught exception.
  process.stderr.on("error", () => {});
  const input = limitLines(Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>, {
    onOversized: (bytes) => say(`dropped a ${bytes}-byte message (over the line limit)`),
  });
  const stream = messageStream({ input, output: Writable.toWeb(process.stdout), onProblem: say });
  const connection = makeApp(stream).connect(stream);
  // One session's stray promise must not end every session; the tests fail on this line.
  const onRejection = (reason: unknown) => say(`unhandled rejection: ${describe(reason)}`);
  process.on("unhandledRejection", onRejection);
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (code: number) => {
      if (stopping) return;
      stopping = true;
      void Promise.resolve()
        .then(shutdown)
        .catch((error: unknown) => say(`shutdown failed: ${describe(error)}`))
        .finally(() => {
          process.off("unhandledRejection", onRejection);
          resolve(code);
        });
    };
    process.once("SIGTERM", () => stop(0));
    process.once("SIGINT", () => stop(0));
    void connection.closed.then(() => stop(exitCode(connection.signal.reason, say)));
  });
}

/** Why the connection closed, as an exit code: the editor leaving is a normal end. */
function exitCode(reason: unknown, say: (text: string) => void): number {
  const code = (reason as { code?: unknown } | undefined)?.code;
  if (code === "EPIPE" || code === "ERR_STREAM_DESTROYED" || code === "ECONNRESET") {
    say("the editor closed stdout; shutting down");
    return 0;
  }
  // The SDK closes with this exact error when the input ends (stdin EOF).
  if (reason instanceof Error && reason.message === "ACP connection closed") return 0;
  say(`connection failed: ${describe(reason)}`);
  return 1;
}

function describe(value: unknown): string {
  return value instanceof Error ? (value.stack ?? value.message) : String(value);
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
