import fs from "node:fs";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { DaemonPaths } from "./daemon-paths.js";
import { ownSocket, privateDir } from "./private-dir.js";
import type { StartedDaemon } from "./start-daemon.js";

export interface ConnectOptions {
  paths: DaemonPaths;
  /** Starts a daemon for `paths`, detached (`startDaemon`). */
  start(): StartedDaemon;
  /** How long to wait for a daemon just started; default 15 s (a first start on a slow disk). */
  startTimeoutMs?: number;
}

/** Why the proxy cannot be used here; the caller runs the agent in-process instead. */
export class DaemonUnavailable extends Error {}

/**
 * A connection to the daemon of `paths`, starting it when none answers. Only a socket of our
 * own in our private folder is ever connected to (`ownSocket`).
 */
export async function connectOrStart(options: ConnectOptions): Promise<net.Socket> {
  const { paths } = options;
  const problem = privateDir(paths.dir);
  if (problem) throw new DaemonUnavailable(problem);
  const first = await attempt(paths.socket);
  if (first instanceof net.Socket) return first;
  const started = options.start();
  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    await sleep(10);
    const next = await attempt(paths.socket);
    if (next instanceof net.Socket) return next;
    // A daemon that cannot listen here (a filesystem without sockets) fails fast: no waiting.
    if (started.failed())
      throw new DaemonUnavailable(`the daemon failed to start (its stderr: ${paths.stderr})`);
  }
  throw new DaemonUnavailable(`no daemon answered on ${paths.socket} (its stderr: ${paths.stderr})`);
}

async function attempt(socketPath: string): Promise<net.Socket | "absent"> {
  if (!fs.existsSync(socketPath)) return "absent";
  if (!ownSocket(socketPath))
    throw new DaemonUnavailable(`${socketPath} is not a private socket of this user; refusing to use it`);
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once("connect", () => {
      socket.removeAllListeners("error");
      resolve(socket);
    });
    // A stale socket file (its daemon was killed) refuses; a new daemon replaces it.
    socket.once("error", () => resolve("absent"));
  });
}
