import os from "node:os";
import { loadConfig } from "../config/load-config.js";
import type { CliOverrides } from "../config/types.js";
import { DaemonUnavailable } from "../daemon/connect-daemon.js";
import { daemonKey, daemonPaths, MAX_SOCKET_PATH } from "../daemon/daemon-paths.js";
import { runProxy } from "../daemon/proxy.js";
import { startDaemon } from "../daemon/start-daemon.js";
import { VERSION } from "./version.js";

/**
 * `interpreter acp` through the shared daemon. Resolves with the exit code, or undefined when
 * this window should be served in-process instead: the daemon is off in config, the config has
 * an error (the in-process agent shows it to the editor), the socket path would be too long,
 * or no daemon could be reached (said on stderr). Nothing of the editor's input is read before
 * that is decided.
 */
export async function acpProxy(options: {
  argv: string[];
  overrides: CliOverrides;
  force: boolean;
}): Promise<number | undefined> {
  const say = (text: string) => {
    process.stderr.write(`interpreter: ${text}\n`);
  };
  process.stderr.on("error", () => {});
  const env = process.env;
  let home: string;
  try {
    const config = loadConfig({ env, cli: options.overrides, userHome: env.HOME ?? os.homedir() });
    if (!config.daemon.enabled && !options.force) return undefined;
    home = config.home;
  } catch {
    return undefined;
  }
  const paths = daemonPaths(home, daemonKey({ version: VERSION, overrides: options.overrides, env }));
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH) {
    say(`${paths.socket} is too long for a Unix socket; serving this window in-process`);
    return undefined;
  }
  try {
    return await runProxy({
      paths,
      start: () => startDaemon({ paths, argv: options.argv, env }),
      stdin: process.stdin,
      stdout: process.stdout,
      say,
    });
  } catch (error) {
    if (!(error instanceof DaemonUnavailable)) throw error;
    say(`${error.message}; serving this window in-process`);
    return undefined;
  }
}
