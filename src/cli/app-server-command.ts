import { serveAppServer } from "../app-server/serve-app-server.js";
import { parseCommandArgs } from "./args.js";
import { runtimeOrReport } from "./runtime.js";
import { VERSION } from "./version.js";

/**
 * `interpreter app-server`: Codex's app-server protocol on stdin/stdout, for Codex's clients
 * (codex-acp, the Codex IDE extension, the app-server SDKs). stdout carries nothing but protocol.
 * Codex passes `--listen stdio://` and `-c key=value` overrides; the overrides are ours too.
 */
export async function appServerCommand(argv: string[]): Promise<number> {
  const at = argv.indexOf("--listen");
  const listen = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && listen !== "stdio://") {
    process.stderr.write(`interpreter app-server: --listen ${listen ?? ""}: only stdio:// is served\n`);
    return 2;
  }
  const args = parseCommandArgs(at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv, {});
  const runtime = runtimeOrReport({ cli: args.overrides });
  if (!runtime) return 1;
  runtime.logger.info({ version: VERSION }, "app-server starting");
  await serveAppServer({
    manager: runtime.manager,
    logger: runtime.logger,
    version: VERSION,
    now: Date.now,
    model: runtime.config.model ?? "",
    provider: runtime.config.provider.id ?? "openai",
    home: runtime.config.home,
    input: process.stdin,
    output: process.stdout,
  });
  await runtime.shutdown();
  return 0;
}
