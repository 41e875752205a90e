// The floor for a Node agent: the ACP SDK on stdio answering initialize and session/new, nothing
// else. Spawned by bench/run.mjs next to our daemon so both are measured in the same run, as it
// is and from a start-up snapshot (bench/bare-snapshot.mjs). bench/bare-tool-agent.mjs adds a
// turn loop to it for the ten-call task.
import { randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { agent, methods, ndJsonStream } from "@agentclientprotocol/sdk";

/** `onSession(sessionId, params)`, when given, sees each session/new before it is answered. */
export const bareApp = ({ onSession } = {}) =>
  agent({ name: "bare" })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: 1,
      agentCapabilities: {},
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, ({ params }) => {
      const sessionId = randomUUID();
      onSession?.(sessionId, params);
      return { sessionId };
    });

/** Serves `app` on stdio until the client closes it, then exits. */
export async function serve(app) {
  const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
  await connection.closed.catch(() => {});
  process.exit(0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) void serve(bareApp());
