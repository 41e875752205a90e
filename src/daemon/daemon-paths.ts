import { createHash } from "node:crypto";
import path from "node:path";
import type { CliOverrides } from "../config/types.js";

/** Where one daemon lives: a private folder under the home, its socket, lock and stderr. */
export interface DaemonPaths {
  /** `$INTERPRETER_HOME/daemon`, mode 0700: its permissions are what keeps other users out. */
  dir: string;
  socket: string;
  /** Holds the pid of the daemon that owns `socket` (or is starting to). */
  lock: string;
  /** The daemon's stderr: stdout belongs to no one, its log lines go to the log file. */
  stderr: string;
}

/** Longest Unix socket path Linux accepts (`sun_path` is 108 bytes with the trailing NUL). */
export const MAX_SOCKET_PATH = 107;

export function daemonPaths(home: string, key: string): DaemonPaths {
  const dir = path.join(home, "daemon");
  return {
    dir,
    socket: path.join(dir, `acp-${key}.sock`),
    lock: path.join(dir, `acp-${key}.pid`),
    stderr: path.join(dir, `acp-${key}.stderr.log`),
  };
}

/** Variables a daemon's behaviour depends on: its endpoints and keys, and the commands' PATH. */
const SHAPING = /KEY|TOKEN|SECRET|PASSWORD|BASE_URL|^OPENAI_|^ANTHROPIC_|^INTERPRETER_|^PATH$|^HOME$/;

/**
 * Which daemon a window shares: one per version, set of command-line overrides and
 * endpoint-shaping environment. A window started with `-m other` or another API key gets a
 * daemon of its own (on the same database) instead of silently the first window's settings,
 * and an upgraded `interpreter` never talks to the daemon of the version before. Only a digest
 * is kept, in the socket's name.
 */
export function daemonKey(o: {
  version: string;
  overrides: CliOverrides;
  env: Record<string, string | undefined>;
}): string {
  const { version, overrides, env } = o;
  const shaping = Object.entries(env)
    .filter(([name, value]) => value !== undefined && SHAPING.test(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify({ version, overrides, shaping }))
    .digest("hex")
    .slice(0, 16);
}
