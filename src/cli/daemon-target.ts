import type net from "node:net";
import os from "node:os";
import { loadConfig } from "../config/load-config.js";
import type { CliOverrides, Config } from "../config/types.js";
import { type ConnectOptions, connectOrStart, DaemonUnavailable } from "../daemon/connect-daemon.js";
import { daemonKey, daemonPaths, MAX_SOCKET_PATH } from "../daemon/daemon-paths.js";
import { startDaemon } from "../daemon/start-daemon.js";
import { VERSION } from "./version.js";

export interface TargetOptions {
  overrides: CliOverrides;
  /** `--daemon`: use the daemon even when `[daemon] enabled = false`. */
  force: boolean;
  /** The environment the daemon would get, and its key is made of. */
  env: NodeJS.ProcessEnv;
}

/** The shared daemon a command would use: its paths, how to start it, and the config it reads. */
export interface DaemonTarget extends ConnectOptions {
  config: Config;
}

/**
 * Which daemon serves this command (docs/daemon.md, "Which daemon"), or why it runs in-process:
 * `reason` undefined when that needs no word (the daemon is off in config and not forced, or the
 * config has an error that the in-process agent reports in its own way), a sentence otherwise.
 */
export function daemonTarget(options: TargetOptions): DaemonTarget | { reason: string | undefined } {
  const { env, overrides } = options;
  let config: Config;
  try {
    config = loadConfig({ env, cli: overrides, userHome: env.HOME ?? os.homedir() });
  } catch {
    return { reason: undefined };
  }
  if (!config.daemon.enabled && !options.force) return { reason: undefined };
  const paths = daemonPaths(config.home, daemonKey({ version: VERSION, overrides, env }));
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH)
    return { reason: `${paths.socket} is too long for a Unix socket` };
  return { config, paths, start: () => startDaemon({ paths, argv: overridesArgv(overrides), env }) };
}

/**
 * A connection to the shared daemon for one of our own clients (exec, the chat), started if
 * none answers; undefined when the command is to run in-process instead, the reason (when there
 * is one) on stderr as the proxy gives it: `interpreter: <reason>; running in-process`.
 */
export async function daemonSocket(
  options: TargetOptions & { say(text: string): void },
): Promise<{ socket: net.Socket; config: Config } | undefined> {
  const target = daemonTarget(options);
  const fallBack = (reason: string | undefined) => {
    if (reason) options.say(`${reason}; running in-process`);
    return undefined;
  };
  if (!("paths" in target)) return fallBack(target.reason);
  try {
    return { socket: await connectOrStart(target), config: target.config };
  } catch (error) {
    if (!(error instanceof DaemonUnavailable)) throw error;
    return fallBack(error.message);
  }
}

/**
 * The command line a daemon is started with: the overrides its key is made of, and nothing of
 * the starting command's own flags (`interpreter daemon` takes only these). The daemon parses
 * them back into the same overrides, so it computes the same key and listens where we wait.
 */
export function overridesArgv(overrides: CliOverrides): string[] {
  return [
    // `--flag=value`: a value that starts with "-" stays a value.
    ...(overrides.model === undefined ? [] : [`--model=${overrides.model}`]),
    ...(overrides.harness === undefined ? [] : [`--harness=${overrides.harness}`]),
    ...(overrides.profile === undefined ? [] : [`--profile=${overrides.profile}`]),
    ...(overrides.overrides ?? []).map((pair) => `--config=${pair}`),
    ...(overrides.chatCompletions ? ["--chat-completions"] : []),
  ];
}
