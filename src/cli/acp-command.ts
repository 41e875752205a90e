import { createAgentApp } from "../acp/agent-app.js";
import { createFailingAgent, serveStdio } from "../acp/serve-stdio.js";
import { parseCommandArgs } from "./args.js";
import { createRuntime, type Runtime } from "./runtime.js";
import { VERSION } from "./version.js";

/** `interpreter acp`: the ACP agent on stdin/stdout. stdout carries nothing but protocol. */
export async function acpCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {});
  let runtime: Runtime;
  try {
    runtime = createRuntime({ cli: args.overrides });
  } catch (error) {
    // Keep speaking ACP so the editor can show why sessions cannot start.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`interpreter: ${message}\n`);
    return serveStdio(createFailingAgent({ message, version: VERSION }), () => {});
  }
  const { manager, logger } = runtime;
  logger.info({ pid: process.pid, version: VERSION, home: runtime.config.home }, "acp agent starting");
  return serveStdio(createAgentApp({ manager, logger, version: VERSION }), () => runtime.shutdown());
}
