import type { Readable, Writable } from "node:stream";
import { type ConnectOptions, connectOrStart } from "./connect-daemon.js";
import { LineSplitter } from "./line-splitter.js";
import { ProxyLedger } from "./proxy-ledger.js";

/** Lines up to this size are held whole before being passed on (the daemon's own limit is 32 MiB). */
const HOLD = 1 << 20;
/** More daemon deaths than this within `RESTART_WINDOW_MS` and the proxy gives up. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60_000;

export interface ProxyOptions extends ConnectOptions {
  stdin: Readable;
  stdout: Writable;
  /** Diagnostics for stderr (never stdout: it carries the protocol). */
  say(text: string): void;
}

/**
 * `interpreter acp` as a thin proxy: the editor's stdio joined to a connection to the shared
 * daemon, whole lines each way, unchanged. When the daemon dies the editor gets an error for
 * each request it had not answered and a notice in each open session; the proxy starts a new
 * daemon, initializes it and resumes this window's sessions from the store as the editor had
 * them, then carries on. Resolves with the exit code: 0 when the editor left.
 */
export async function runProxy(options: ProxyOptions): Promise<number> {
  const { stdin, stdout, say } = options;
  const ledger = new ProxyLedger();
  const fromEditor = new LineSplitter(HOLD);
  const fromDaemon = new LineSplitter(HOLD);
  const first = await connectOrStart(options);
  let socket: Awaited<ReturnType<typeof connectOrStart>> | undefined = first;
  /** Editor bytes that arrived while there was no daemon, or while a new one was being restored. */
  let queue: { bytes: Buffer; lines: Buffer[] }[] = [];
  const deaths: number[] = [];
  let editorGone = false;
  let done: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    done = resolve;
  });

  // The ledger learns of a request when it goes to a daemon: one still queued when a daemon
  // dies goes to the next one instead of being answered with an error.
  const toDaemon = (bytes: Buffer, lines: Buffer[]) => {
    if (!socket || ledger.restoring()) return void queue.push({ bytes, lines });
    for (const line of lines) ledger.fromEditor(line);
    if (!socket.write(bytes)) stdin.pause();
  };
  const flushQueue = () => {
    if (!socket || ledger.restoring() || queue.length === 0) return;
    const items = queue;
    queue = [];
    for (const item of items) toDaemon(item.bytes, item.lines);
  };
  let waiting = false;
  const toEditor = (bytes: Buffer | string) => {
    if (editorGone) return;
    if (stdout.write(bytes) || !socket || waiting) return;
    // The editor reads slower than the daemon writes (a long replay): let the daemon wait.
    const paused = socket;
    paused.pause();
    waiting = true;
    stdout.once("drain", () => {
      waiting = false;
      paused.resume();
    });
  };

  const attach = (s: NonNullable<typeof socket>) => {
    s.on("data", (chunk: Buffer) => {
      const { forward, lines } = fromDaemon.push(chunk);
      if (!forward) return;
      const kept = lines.filter((line) => ledger.fromDaemon(line));
      for (const line of ledger.takeOutbox()) s.write(line);
      toEditor(kept.length === lines.length ? forward : kept.map((l) => `${l}\n`).join(""));
      flushQueue();
    });
    s.on("drain", () => stdin.resume());
    s.on("error", () => {});
    s.on("close", () => {
      if (socket !== s || editorGone) return;
      socket = undefined;
      void daemonLost();
    });
  };

  const daemonLost = async () => {
    // Half a line from the dead daemon must not swallow the next message.
    if (fromDaemon.reset()) toEditor("\n");
    const now = Date.now();
    deaths.push(now);
    const recent = deaths.filter((t) => now - t < RESTART_WINDOW_MS).length;
    if (recent > MAX_RESTARTS) {
      for (const line of ledger.lost(false)) toEditor(line);
      say(`the daemon stopped ${recent} times within a minute; giving up (see ${options.paths.stderr})`);
      return done(1);
    }
    for (const line of ledger.lost(true)) toEditor(line);
    say("the daemon stopped; starting a new one");
    try {
      const s = await connectOrStart(options);
      if (editorGone) return void s.destroy();
      socket = s;
      attach(s);
      for (const line of ledger.restore()) s.write(line);
      flushQueue();
    } catch (error) {
      say(`cannot restart the daemon: ${(error as Error).message}`);
      done(1);
    }
  };

  attach(first);
  stdin.on("data", (chunk: Buffer) => {
    const { forward, lines } = fromEditor.push(chunk);
    if (forward) toDaemon(forward, lines);
  });
  stdin.on("end", () => {
    editorGone = true;
    if (!socket) return done(0);
    // The daemon sees the window leave once what it sent is written; turns go on per on_client_gone.
    socket.end(() => done(0));
    setTimeout(() => done(0), 1_000).unref();
  });
  const leave = () => {
    editorGone = true;
    socket?.end();
    done(0);
  };
  process.once("SIGTERM", leave);
  process.once("SIGINT", leave);
  stdout.on("error", () => {
    editorGone = true;
    socket?.destroy();
    done(0);
  });
  return finished;
}
