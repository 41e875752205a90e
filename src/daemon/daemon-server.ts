import fs from "node:fs";
import net from "node:net";
import { createAgentApp } from "../acp/agent-app.js";
import { createInflight, type Inflight } from "../acp/inflight.js";
import { serveConnection } from "../acp/serve-connection.js";
import type { Logger } from "../config/logger.js";
import type { DaemonConfig } from "../config/types.js";
import type { SessionManager } from "../sessions/session-manager.js";
import { takeLock } from "./daemon-lock.js";
import type { DaemonPaths } from "./daemon-paths.js";
import { privateDir } from "./private-dir.js";
import { SessionWindows } from "./session-windows.js";

export interface DaemonServerOptions {
  paths: DaemonPaths;
  manager: SessionManager;
  logger: Logger;
  version: string;
  settings: DaemonConfig;
  /** How often an idle daemon checks that its socket is still its own (tests shorten it). */
  checkEveryMs?: number;
}

/**
 * The shared daemon: every connection on the socket is one window's ACP connection to the one
 * SessionManager. Resolves once the daemon should exit (its work ended, the caller closes the
 * runtime): after `idleExitMs` with no connection and no running turn, at once when its socket
 * was removed or taken by another daemon and nobody is connected, or on SIGTERM/SIGINT.
 * Resolves "taken" at once when another daemon owns the socket path already.
 */
export async function runDaemonServer(options: DaemonServerOptions): Promise<"done" | "taken"> {
  const { paths, manager, logger, settings } = options;
  const problem = privateDir(paths.dir);
  if (problem) throw new Error(`daemon folder unusable: ${problem}`);
  const lock = takeLock(paths.lock);
  if (!lock) return "taken";
  fs.rmSync(paths.socket, { force: true });
  const windows = new SessionWindows({ manager, logger, onClientGone: settings.onClientGone });
  const turns = countingInflight(() => {
    windows.sweep();
    idle.update();
  });
  let connections = 0;
  let inode: number | undefined;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const idle = idleTimer({
    idle: () => connections === 0 && turns.running() === 0,
    afterMs: settings.idleExitMs,
    checkEveryMs: options.checkEveryMs ?? 2_000,
    orphaned: () => socketInode(paths.socket) !== inode,
    exit: (why) => {
      logger.info({ why }, "daemon exiting");
      finish();
    },
  });
  const server = net.createServer((socket) => {
    connections++;
    idle.update();
    const window = windows.open();
    const { closed } = serveConnection({
      socket,
      onProblem: (text) => logger.warn({ text }, "connection problem"),
      makeApp: ({ drained }) =>
        createAgentApp({
          manager,
          logger,
          version: options.version,
          inflight: turns,
          drained,
          windows: window,
        }),
    });
    void closed.then(() => {
      connections--;
      window.gone();
      idle.update();
    });
  });
  // Created 0600 (umask) rather than chmod-ed after: a window checks the mode before connecting.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(paths.socket, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  // After listening, an error (too many open files on accept) is one window's problem, not the daemon's end.
  server.on("error", (error) => logger.error({ err: String(error) }, "socket server error"));
  inode = fs.statSync(paths.socket).ino;
  logger.info({ socket: paths.socket, pid: process.pid }, "daemon listening");

  idle.update();
  const onSignal = () => finish();
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  await finished;
  idle.stop();
  process.off("SIGTERM", onSignal);
  process.off("SIGINT", onSignal);
  server.close();
  if (socketInode(paths.socket) === inode) fs.rmSync(paths.socket, { force: true });
  lock.release();
  // Turns still running (a signal came) get a moment to record their end before the store closes.
  const closing = manager.closeAll();
  await turns.settled(3_000);
  await closing;
  return "done";
}

/** How long a daemon just started waits for a first window whatever `idle_exit_secs` says. */
const FIRST_WINDOW_MS = 10_000;

function socketInode(socket: string): number | undefined {
  try {
    return fs.statSync(socket).ino;
  } catch {
    return undefined;
  }
}

/** Tracks prompt turns across connections, and says when one ends (the sweep and idle clock). */
function countingInflight(onSettled: () => void): Inflight & { running(): number } {
  const inner = createInflight();
  let running = 0;
  return {
    track(work) {
      running++;
      const settle = () => {
        running--;
        onSettled();
      };
      void work.then(settle, settle);
      return inner.track(work);
    },
    settled: (timeoutMs) => inner.settled(timeoutMs),
    running: () => running,
  };
}

/**
 * The idle clock: armed while the daemon is idle, exits after `afterMs`. While idle it also
 * checks every `checkEveryMs` that the socket is still its own: a home that was deleted (a
 * test's temporary one) or a socket another daemon took leaves this one unreachable, so it
 * exits then rather than after the full idle time.
 */
function idleTimer(o: {
  idle: () => boolean;
  afterMs: number;
  checkEveryMs: number;
  orphaned: () => boolean;
  exit: (why: string) => void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let check: NodeJS.Timeout | undefined;
  // The window that started the daemon connects only once it sees the socket: the first idle
  // spell waits for it even when `afterMs` is 0.
  let first = true;
  const stop = () => {
    clearTimeout(timer);
    clearInterval(check);
    timer = undefined;
    check = undefined;
  };
  return {
    update() {
      if (!o.idle()) return stop();
      if (timer) return;
      timer = setTimeout(() => o.exit("idle"), first ? Math.max(o.afterMs, FIRST_WINDOW_MS) : o.afterMs);
      first = false;
      check = setInterval(() => {
        if (o.orphaned()) o.exit("socket gone");
      }, o.checkEveryMs);
    },
    stop,
  };
}
