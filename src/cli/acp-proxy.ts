import type { CliOverrides } from "../config/types.js";
import { DaemonUnavailable } from "../daemon/connect-daemon.js";
import { runProxy } from "../daemon/proxy.js";
import { daemonTarget } from "./daemon-target.js";

/**
 * `interpreter acp` through the shared daemon. Resolves with the exit code, or undefined when
 * this window should be served in-process instead: the daemon is off in config, the config has
 * an error (the in-process agent shows it to the editor), the socket path would be too long,
 * or no daemon could be reached (said on stderr). Nothing of the editor's input is read before
 * that is decided.
 */
export async function acpProxy(options: {
  overrides: CliOverrides;
  force: boolean;
}): Promise<number | undefined> {
  const say = (text: string) => {
    process.stderr.write(`interpreter: ${text}\n`);
  };
  process.stderr.on("error", () => {});
  const target = daemonTarget({ overrides: options.overrides, force: options.force, env: process.env });
  const inProcess = (reason: string | undefined) => {
    if (reason) say(`${reason}; serving this window in-process`);
    return undefined;
  };
  if (!("paths" in target)) return inProcess(target.reason);
  try {
    return await runProxy({ ...target, stdin: process.stdin, stdout: process.stdout, say });
  } catch (error) {
    if (!(error instanceof DaemonUnavailable)) throw error;
    return inProcess(error.message);
  }
}
