import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../config/load-config.js";
import { createLogger, type Logger } from "../config/logger.js";
import { type CliOverrides, type Config, ConfigError } from "../config/types.js";
import { builtinHarnesses, harnessProblem } from "../harnesses/harness-list.js";
import type { HarnessEntry } from "../harnesses/types.js";
import { createProvider } from "../providers/create-provider.js";
import { SessionManager } from "../sessions/session-manager.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/types.js";
import { buildChildEnv } from "../tools/exec/child-env.js";
import { createSpawner } from "../tools/exec/spawner/spawner-client.js";
import { createLocalFs } from "../tools/local-fs.js";
import { createSandboxedExec } from "../tools/sandbox/sandboxed-exec.js";
import { VERSION } from "./version.js";

export interface Runtime {
  config: Config;
  logger: Logger;
  store: Store;
  manager: SessionManager;
  /** Cancels every session, stops MCP servers, closes the database and flushes the log. */
  shutdown(): Promise<void>;
}

export interface RuntimeOptions {
  cli: CliOverrides;
  env?: NodeJS.ProcessEnv;
  /** Replaces the built-in harness list (tests of a single harness). */
  harnesses?: HarnessEntry[];
}

/** Reads config (throws `ConfigError`) and wires the daemon's parts together. */
export function createRuntime(options: RuntimeOptions): Runtime {
  const env = options.env ?? process.env;
  const userHome = env.HOME ?? os.homedir();
  const config = loadConfig({ env, cli: options.cli, userHome });
  const harnesses = options.harnesses ?? builtinHarnesses();
  // Config cannot know the harness ids (it sits below harnesses): checked here, before anything opens.
  const problem =
    config.harness &&
    harnessProblem({
      id: config.harness,
      source: config.harnessSource ?? config.file,
      harnesses,
      wire: config.provider.wireApi,
    });
  if (problem) throw new ConfigError(problem, config.file, "harness");
  const logger = createLogger({ home: config.home, level: env.INTERPRETER_LOG ?? "info" });
  const store = openStore({ path: path.join(config.home, "openinterpreter.db") });
  if (store.recovered)
    logger.warn({ quarantined: store.recovered }, "database was corrupt; started a fresh one");
  // Commands are forked by a small helper process: a fork blocks the forking process for a time
  // that grows with its memory, and this one is big (docs/performance.md).
  // Its environment is the commands' own: they can read their parent's /proc/<pid>/environ.
  const spawner = createSpawner({
    env: buildChildEnv(env),
    onLog: (text) => logger.warn({ text }, "spawn helper stderr"),
  });
  // Probed when the first session opens, after its response (SessionManager), through the
  // spawn helper: start-up and `initialize` start no process.
  const sandbox = createSandboxedExec({
    spawn: spawner.spawn,
    env: buildChildEnv(env),
    whenUnavailable: "run-unconfined",
    home: userHome,
    hidden: [config.home],
    perSessionHelper: config.sandbox.perSessionHelper,
  });
  const manager = new SessionManager({
    config,
    store,
    logger,
    harnesses,
    createProvider,
    sandbox,
    fs: createLocalFs(),
    userHome,
    env,
    version: VERSION,
    newId: randomUUID,
  });
  let down = false;
  return {
    config,
    logger,
    store,
    manager,
    async shutdown() {
      if (down) return;
      down = true;
      await manager.closeAll();
      sandbox.dispose();
      spawner.dispose();
      store.close();
      logger.flush();
    },
  };
}

/**
 * `createRuntime` for the one-shot commands (`exec`, `trust`): a config error is written to
 * stderr as `interpreter: <message>` and comes back as undefined, for the command to exit 1.
 */
export function openRuntime(cli: CliOverrides): Runtime | undefined {
  try {
    return createRuntime({ cli });
  } catch (error) {
    process.stderr.write(`interpreter: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
}

/** `createRuntime` for commands that cannot run without one: the reason goes to stderr. */
export function runtimeOrReport(options: RuntimeOptions): Runtime | undefined {
  try {
    return createRuntime(options);
  } catch (error) {
    process.stderr.write(`interpreter: ${error instanceof Error ? error.message : String(error)}\n`);
    return undefined;
  }
}
