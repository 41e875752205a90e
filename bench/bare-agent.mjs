// The floor for a Node agent: the ACP SDK on stdio answering initialize and session/new, nothing
// else. Spawned by bench/run.mjs next to our daemon so both are measured in the same run.
import { randomUUID } from "node:crypto";
import { Readable, Writable } from "node:stream";
import { agent, methods, ndJsonStream } from "@agentclientprotocol/sdk";

const app = agent({ name: "bare" })
  .onRequest(methods.agent.initialize, () => ({ protocolVersion: 1, agentCapabilities: {}, authMethods: [] }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: randomUUID() }));
const connection = app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
await connection.closed.catch(() => {});
process.exit(0);
