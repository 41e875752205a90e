import { daemonKey, daemonPaths } from "../daemon/daemon-paths.js";
import { runDaemonServer } from "../daemon/daemon-server.js";
import { parseCommandArgs } from "./args.js";
import { createRuntime, type Runtime } from "./runtime.js";
import { VERSION } from "./version.js";

/**
 * `interpreter daemon`: the shared daemon, started by the first `interpreter acp` that finds
 * none. It owns the sessions; windows reach it through its socket (docs/daemon.md). Exits 0
 * when idle long enough or when another daemon owns its socket already.
 */
export async function daemonCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, {});
  let runtime: Runtime;
  try {
    runtime = createRuntime({ cli: args.overrides });
  } catch (error) {
    process.stderr.write(`interpreter daemon: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const { logger, manager, config } = runtime;
  // One session's stray promise must not end every window's sessions.
  process.on("unhandledRejection", (reason) => logger.error({ err: String(reason) }, "unhandled rejection"));
  const paths = daemonPaths(
    config.home,
    daemonKey({ version: VERSION, overrides: args.overrides, env: process.env }),
  );
  let code = 0;
  try {
    const outcome = await runDaemonServer({
      paths,
      manager,
      logger,
      version: VERSION,
      settings: config.daemon,
    });
    if (outcome === "taken") logger.info({ socket: paths.socket }, "another daemon owns the socket");
  } catch (error) {
    logger.error({ err: String(error) }, "daemon failed");
    process.stderr.write(`interpreter daemon: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  await runtime.shutdown();
  return code;
}
