import { createAgentApp } from "../acp/agent-app.js";
import { createInflight } from "../acp/inflight.js";
import { createFailingAgent, serveStdio } from "../acp/serve-stdio.js";
import { acpProxy } from "./acp-proxy.js";
import { parseCommandArgs } from "./args.js";
import { startDiagnostics } from "./diagnostics.js";
import { createRuntime, type Runtime } from "./runtime.js";
import { VERSION } from "./version.js";

/**
 * `interpreter acp`: the ACP agent on stdin/stdout. stdout carries nothing but protocol. By
 * default a proxy to the shared daemon (docs/daemon.md); `--in-process`, `[daemon] enabled =
 * false`, or a daemon that cannot be reached here serve the editor from this process.
 */
export async function acpCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, ACP_OPTIONS);
  if (!args.values["in-process"]) {
    const proxied = await acpProxy({ overrides: args.overrides, force: args.values.daemon === true });
    if (proxied !== undefined) return proxied;
  }
  let runtime: Runtime;
  try {
    runtime = createRuntime({ cli: args.overrides });
  } catch (error) {
    // Keep speaking ACP so the editor can show why sessions cannot start.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`interpreter: ${message}\n`);
    return serveStdio(
      () => createFailingAgent({ message, version: VERSION }),
      () => {},
    );
  }
  const { manager, logger } = runtime;
  logger.info({ version: VERSION, home: runtime.config.home }, "acp agent starting");
  const diagnostics = startDiagnostics({ env: process.env, logger });
  const inflight = createInflight();
  const app = ({ drained }: { drained: () => Promise<void> }) =>
    createAgentApp({ manager, logger, version: VERSION, inflight, drained });
  return serveStdio(app, async () => {
    diagnostics?.stop();
    // Cancel every turn first, then give the cancelled turns a moment to record their end
    // (turn_ended) before the database closes; a turn that will not stop cannot hold up the exit.
    const closing = manager.closeAll();
    await inflight.settled(SETTLE_MS);
    await closing;
    return runtime.shutdown();
  });
}

const SETTLE_MS = 3_000;
const ACP_OPTIONS = { "in-process": { type: "boolean" }, daemon: { type: "boolean" } } as const;
