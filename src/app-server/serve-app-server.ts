import type { Readable, Writable } from "node:stream";
import { type AppServerOptions, appServerMethods } from "./app-server-methods.js";
import { RpcError, serveLines } from "./json-rpc-lines.js";
import type { ThreadDeps } from "./threads.js";

/**
 * The Codex app-server protocol on a pair of streams (stdin/stdout for `interpreter
 * app-server`). Resolves when the client closes its end; the caller then shuts the runtime down.
 */
export async function serveAppServer(
  options: AppServerOptions & { input: Readable; output: Writable },
): Promise<void> {
  let methods: Record<string, (params: Record<string, unknown>) => Promise<unknown>> = {};
  const peer = serveLines({
    input: options.input,
    output: options.output,
    async onRequest(method, params) {
      const handler = methods[method];
      if (!handler) throw new RpcError(-32601, `method not implemented: ${method}`);
      return handler((params ?? {}) as Record<string, unknown>);
    },
    onNotification(method) {
      if (method !== "initialized") options.logger.info({ method }, "app-server notification ignored");
    },
    onBadLine(line) {
      options.logger.warn({ chars: line.length }, "app-server dropped a line that is not JSON");
    },
  });
  const deps: ThreadDeps = {
    manager: options.manager,
    logger: options.logger,
    version: options.version,
    now: options.now,
    peer,
  };
  methods = appServerMethods(options, deps);
  await peer.closed;
}
