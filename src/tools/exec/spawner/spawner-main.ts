/**
 * The spawn helper: a small long-lived child of the daemon that forks the commands, so the
 * daemon never forks per command: fork's cost grows with the parent's memory and blocks the
 * event loop meanwhile (docs/performance.md has the figures).
 * Built on its own as `dist/spawner.js` (node:* and the protocol's own small modules only).
 *
 * Protocol (spawner-client.ts and frame-reader.ts mirror it): frames of
 * `[type u8][id u32 BE][length u32 BE][payload]` both ways.
 *   daemon → helper: SPAWN (JSON {file, args, cwd, env, fd3File?, cgroupProcs?, stdin?}), RELEASE (stop
 *                    reading its pipes), STDIN / STDIN_END (bytes for, and the end of, a piped stdin)
 *   helper → daemon: SPAWNED (u32 pid), FAILED (JSON {message, code}; code `SPARE_GONE`: the
 *                    spare a request named cannot take it, place it again), STDOUT / STDERR (bytes),
 *                    EXIT (JSON {code, signal}: the process exited), CLOSE (its pipes closed too),
 *                    RETIRE (id 0: start the next command in a new helper, end this one when idle),
 *                    READY (id 0: a confined helper is up),
 *                    SPARE (id 0, u32 pid: a confined helper's spare shell is waiting; a SPAWN
 *                    naming that pid in `spare` is handed to it, the daemon having moved it into
 *                    the command's cgroup)
 * Frames of one command keep their order, so all output precedes CLOSE, as node's 'close'.
 *
 * Lifetime: ends on stdin EOF (the daemon exited or disposed it) and when re-parented (the
 * daemon was killed and the EOF never came); either way it SIGKILLs what the commands still
 * run (its descendants and their process groups), which nobody can read or stop any more.
 */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import net from "node:net";
import { confineHelper } from "./confine-helper.js";
import { FrameReader, HEADER_BYTES as HEADER } from "./frame-reader.js";
import {
  CLOSE,
  EXIT,
  FAILED,
  READY,
  RELEASE,
  RETIRE,
  SPARE,
  SPAWN,
  SPAWNED,
  STDERR,
  STDIN,
  STDIN_END,
  STDOUT,
} from "./frame-types.js";
import { SPARE_GONE, SpareShell } from "./spare-shell.js";
import type { SpawnCommandOptions } from "./spawned-process.js";
import { startChild } from "./start-child.js";

const PARENT_POLL_MS = 300;
/**
 * Spares a confined helper keeps waiting. The daemon's move of a fresh spare into its cgroup
 * can wait for an RCU grace period, longer than a model that answers at once leaves between two
 * commands: with a second spare, the next command takes one placed a command ago.
 */
const CONFINED_SPARES = 2;
/** `--spare-loader=<path>`: where the confined helper's loader is, to start its spare through. */
const LOADER = "--spare-loader=";

interface SpawnRequest extends SpawnCommandOptions {
  file: string;
  args: string[];
  /** Confined only: the spare the daemon placed in the command's group, which may take it. */
  spare?: number;
}

function main(): void {
  const input = new net.Socket({ fd: 0, readable: true, writable: false });
  // Not process.stdout: a socket of our own with room for a few chunks, and async writes.
  // (net.Socket passes stream options on to its Duplex; the typings do not list them.)
  const socketOptions = { fd: 1, readable: false, writable: true, writableHighWaterMark: 256 * 1024 };
  const output = new net.Socket(socketOptions as net.SocketConstructorOpts);
  const children = new Map<number, ChildProcess>();
  const paused = new Set<NodeJS.ReadableStream>();
  const parent = process.ppid;
  // `--confined`: this helper runs inside the sandbox (confine-helper.ts); its spare shells, started
  // through the non-dumpable loader, take only a command the daemon placed them for. One is
  // forked as soon as the command before has ended, not after a quiet moment: the daemon's move
  // of it into a cgroup can wait for an RCU grace period, which then passes while the model
  // answers (docs/performance.md).
  const confined = process.argv.includes("--confined");
  const loader = process.argv.find((arg) => arg.startsWith(LOADER))?.slice(LOADER.length);

  const send = (type: number, id: number, payload?: Buffer): boolean => {
    const header = Buffer.allocUnsafe(HEADER);
    header.writeUInt8(type, 0);
    header.writeUInt32BE(id, 1);
    header.writeUInt32BE(payload?.length ?? 0, 5);
    if (!payload?.length) return output.write(header);
    // One writev of header and chunk, without copying the chunk.
    output.cork();
    output.write(header);
    const room = output.write(payload);
    output.uncork();
    return room;
  };
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const announce = (pid: number) => {
    const payload = Buffer.allocUnsafe(4);
    payload.writeUInt32BE(pid, 0);
    send(SPARE, 0, payload);
  };
  const spare = !confined
    ? new SpareShell()
    : loader === undefined
      ? undefined
      : new SpareShell({ loader, onReady: announce, idleMs: 0, count: CONFINED_SPARES });
  output.on("drain", () => {
    for (const stream of paused) stream.resume();
    paused.clear();
  });
  output.on("error", () => shutdown()); // EPIPE: the daemon is gone

  const start = (id: number, request: SpawnRequest): void => {
    let child: ChildProcess;
    try {
      const { file, args, spare: placed, ...options } = request;
      // Confined, only the spare the daemon moved into the command's group may take it, and
      // this helper is not in that group: without that spare the daemon must place it again.
      const usable = options.stdin === undefined && (!confined || placed !== undefined);
      const viaSpare = usable ? spare?.take(file, args, options, placed) : undefined;
      if (!viaSpare && placed !== undefined) {
        send(FAILED, id, json({ message: "the spare shell is gone", code: SPARE_GONE }));
        return;
      }
      child = viaSpare ?? startChild(file, args, options);
    } catch (error) {
      send(FAILED, id, json(describe(error)));
      return;
    } finally {
      // Confined, only once the command ended: forking the spare while it runs holds up its frames.
      if (!confined) spare?.refillWhenIdle();
    }
    child.stdin?.on("error", () => {}); // EPIPE: the command closed its stdin
    child.on("error", (error) => {
      if (child.pid === undefined) send(FAILED, id, json(describe(error)));
    });
    if (child.pid === undefined) return; // the 'error' above follows
    const pid = child.pid;
    children.set(id, child);
    const head = Buffer.allocUnsafe(4);
    head.writeUInt32BE(pid, 0);
    send(SPAWNED, id, head);
    for (const [stream, type] of [
      [child.stdout, STDOUT],
      [child.stderr, STDERR],
    ] as const) {
      stream?.on("data", (chunk: Buffer) => {
        // Backpressure: a command that outruns the daemon waits on its pipe, not in our memory.
        if (!send(type, id, chunk)) {
          stream.pause();
          paused.add(stream);
        }
      });
    }
    child.on("exit", (code, signal) => send(EXIT, id, json({ code, signal })));
    child.on("close", () => {
      children.delete(id);
      if (child.stdout) paused.delete(child.stdout);
      if (child.stderr) paused.delete(child.stderr);
      send(CLOSE, id);
      spare?.refillWhenIdle();
      if (children.size === 0 && guard?.idle()) send(RETIRE, 0);
    });
  };

  const release = (id: number): void => {
    const child = children.get(id);
    child?.stdout?.destroy();
    child?.stderr?.destroy();
  };

  let shuttingDown = false;
  const shutdown = (): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    spare?.dispose();
    // Descendants first (while their parents still link them to us: a `setsid` one has left
    // the group), then the groups, which also hold whatever is re-parented by now.
    for (const pid of descendants(process.pid)) trySignal(pid);
    for (const child of children.values()) {
      if (child.pid === undefined) continue;
      trySignal(-child.pid);
    }
    process.exit(0);
  };

  const reader = new FrameReader({
    streamed: new Set(),
    onPiece: () => {},
    onFrame(type, id, payload) {
      if (type === SPAWN) start(id, JSON.parse(payload.toString("utf8")) as SpawnRequest);
      else if (type === RELEASE) release(id);
      else if (type === STDIN) children.get(id)?.stdin?.write(payload);
      else if (type === STDIN_END) children.get(id)?.stdin?.end();
    },
  });
  input.on("data", (chunk: Buffer) => reader.feed(chunk));
  input.on("end", shutdown);
  input.on("error", shutdown);
  spare?.refillWhenIdle(); // the first spare, once start-up is over
  const guard = confined ? confineHelper() : undefined;
  if (confined) send(READY, 0);
  // A daemon killed with SIGKILL closes our stdin too, but a grandchild holding a copy of the
  // daemon's end of the pipe would keep it open: the parent check does not depend on that.
  setInterval(() => {
    if (process.ppid !== parent) shutdown();
  }, PARENT_POLL_MS).unref();
  // Terminal signals are the daemon's to handle; it ends us by closing stdin.
  process.on("SIGINT", () => {});
  process.on("SIGHUP", () => {});
}

function trySignal(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // ESRCH: gone already.
  }
}

/** Every process below `root`, from the parent links in /proc (empty without /proc). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  let names: string[] = [];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // exited while we looked
    }
  }
  const found: number[] = [];
  const queue = [root];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function describe(error: unknown): { message: string; code?: string } {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === undefined ? { message: error.message } : { message: error.message, code };
  }
  return { message: String(error) };
}

main();
