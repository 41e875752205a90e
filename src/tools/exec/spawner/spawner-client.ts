import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import { encodeFrame, FrameReader } from "./frame-reader.js";
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
import { HelperChild } from "./helper-child.js";
import { SPARE_GONE } from "./spare-shell.js";
import type { SpawnCommand, SpawnedProcess } from "./spawned-process.js";
import { spawnerPath } from "./spawner-path.js";

const STREAMED = new Set([STDOUT, STDERR]);

export interface SpawnerOptions {
  /** The helper program. Default `spawnerPath()`: dist/spawner.js next to the running code. */
  path?: string;
  /**
   * The helper's own environment. Default: empty. Never the daemon's (it holds API keys): a
   * command can read its parent's `/proc/<pid>/environ`, so at most what commands get anyway.
   */
  env?: Record<string, string>;
  /** What the helper writes to stderr (a crash's stack trace), for the daemon's log. */
  onLog?: (text: string) => void;
  /**
   * Starts the helper instead of node's spawn of `path`, its stdin and stdout carrying the
   * frames: the sandbox starts one inside bubblewrap through the daemon's own helper.
   */
  start?: () => SpawnedProcess;
  /** A helper started by `start` reported that it is up (a confined one does). */
  onReady?: () => void;
  /** Whether a command is killed by its process group when its helper dies. Default true. */
  killOnLoss?: boolean;
  /**
   * For a helper that cannot write cgroup files itself: `enter` moves it into a command's
   * cgroup before that command's SPAWN is sent (`cgroupProcs` is not sent), `leave` moves it
   * back once the command started or failed. Such spawns wait for each other meanwhile.
   */
  placement?: Placement;
}

export interface Placement {
  /**
   * Resolves once the command can be born in the group: `spare`, the pid (as the helper sees
   * it) of a spare shell already in the group, which is to take the command; else `moved`, the
   * helper is in the group (then `leave` follows). Undefined fails the spawn.
   */
  enter(cgroupProcs: string): Promise<{ spare?: number; moved: boolean } | undefined>;
  leave(cgroupProcs: string): void;
  /** The helper reported a spare shell waiting, by its pid as the helper sees it. */
  spareReady?(pid: number): void;
}

export interface Spawner {
  /** Starts a command through the helper; a drop-in for run-command's `spawn` option. */
  spawn: SpawnCommand;
  /** The helper's pid while it runs (diagnostics and tests). */
  readonly pid: number | undefined;
  /** Ends the helper (stdin EOF: it kills what still runs and exits); later spawns fail. */
  dispose(): void;
  /** Ends the helper once its running commands are done; a later spawn starts a new one. */
  retire(): void;
  /** Starts the helper now unless it runs (or the spawner was disposed). */
  warm(): void;
}

interface Helper {
  process: ChildProcess | SpawnedProcess;
  children: Map<number, HelperChild>;
  /** Streams whose buffer is full: the helper's output waits until they want more. */
  full: Set<HelperChild>;
  /** It asked to be replaced: no new commands; its stdin ends once its last command closed. */
  retired: boolean;
  /** Placed spawns waiting for the one in flight (`placement`). */
  placing: Promise<void>;
  /** Placed spawns whose spare turns out gone: they are placed again (`SPARE_GONE`). */
  unspared: Map<number, () => void>;
}

/**
 * One spawn helper per runtime (see spawner-main.ts for why and for the protocol). Started by
 * the first command (the sandbox probe, when a session opens), restarted by the next command
 * after it died. The helper never gets the daemon's environment (see `env`); each command's
 * environment travels with its request. Its pipes do not keep the daemon alive, except while a command runs.
 */
export function createSpawner(options: SpawnerOptions = {}): Spawner {
  let helper: Helper | undefined;
  let disposed = false;
  let nextId = 0;

  const launch = (): Helper => {
    const program = options.path ?? spawnerPath();
    // A small young generation, as the daemon's launcher sets: the helper's heap stays small.
    const child =
      options.start?.() ??
      spawn(process.execPath, ["--max-semi-space-size=1", program], {
        cwd: "/",
        env: options.env ?? {},
        stdio: ["pipe", "pipe", "pipe"],
        // Its own process group: a Ctrl-C meant for the daemon's terminal is the daemon's to handle.
        detached: true,
      });
    const current: Helper = {
      process: child,
      children: new Map(),
      full: new Set(),
      retired: false,
      placing: Promise.resolve(),
      unspared: new Map(),
    };
    const output = child.stdout as Socket;
    const reader = new FrameReader({
      streamed: STREAMED,
      onPiece(type, id, bytes) {
        const target = current.children.get(id);
        if (target && !target.data(type === STDOUT ? 1 : 2, bytes)) {
          current.full.add(target);
          output.pause();
        }
      },
      onFrame(type, id, payload) {
        if (type === READY) {
          if (helper === current) options.onReady?.();
          return;
        }
        if (type === SPARE) {
          if (helper === current) options.placement?.spareReady?.(payload.readUInt32BE(0));
          return;
        }
        if (type === RETIRE) return retire(current);
        const target = current.children.get(id);
        if (!target) return;
        if (type === SPAWNED) target.spawned(payload.readUInt32BE(0));
        else if (type === EXIT) {
          const { code, signal } = JSON.parse(payload.toString("utf8")) as {
            code: number | null;
            signal: NodeJS.Signals | null;
          };
          target.exited(code, signal);
        } else if (type === CLOSE) target.closed();
        else if (type === FAILED) {
          const { message, code } = JSON.parse(payload.toString("utf8")) as {
            message: string;
            code?: string;
          };
          const again = code === SPARE_GONE ? current.unspared.get(id) : undefined;
          if (again) return again();
          current.children.delete(id);
          target.failed(Object.assign(new Error(message), code === undefined ? {} : { code }));
        }
      },
    });
    output.on("data", (chunk: Buffer) => reader.feed(chunk));
    child.stderr?.on("data", (chunk: Buffer) => options.onLog?.(chunk.toString("utf8")));
    child.stdin?.on("error", () => {}); // EPIPE once it died: 'close' below tells the commands
    let gone = false;
    const lost = (why: string) => {
      current.retired = true;
      if (gone) return;
      gone = true;
      if (helper === current) helper = undefined;
      for (const target of current.children.values()) target.lost(why);
      current.children.clear();
    };
    child.on("error", (error) => lost(`the spawn helper could not start: ${error.message}`));
    child.on("close", (code, signal) =>
      lost(
        `the spawn helper (${program}) exited (${signal ?? `code ${code}`})${disposed ? " at shutdown" : ""}`,
      ),
    );
    idle(current);
    return current;
  };

  /** No new commands for `current`; its stdin ends once its last command closed. */
  const retire = (current: Helper) => {
    current.retired = true;
    if (helper === current) helper = undefined;
    if (current.children.size === 0) current.process.stdin?.end();
  };

  // A helper started by `start` has no handles of its own: the daemon's helper keeps count.
  const idle = (current: Helper) => {
    (current.process as ChildProcess).unref?.();
    for (const stream of [current.process.stdin, current.process.stdout, current.process.stderr]) {
      (stream as Partial<Socket> | null | undefined)?.unref?.();
    }
  };
  const busy = (current: Helper) => {
    (current.process as ChildProcess).ref?.();
    (current.process.stdout as Partial<Socket> | null)?.ref?.();
  };

  const spawnCommand: SpawnCommand = (file, args, spawnOptions): SpawnedProcess => {
    nextId = (nextId + 1) >>> 0;
    const id = nextId;
    if (disposed) {
      const orphan = new HelperChild({ release: () => {}, wantMore: () => {} });
      queueMicrotask(() => orphan.failed(new Error("the spawn helper was shut down")));
      return orphan;
    }
    helper ??= launch();
    const current = helper;
    const write = (frame: Buffer) => current.process.stdin?.write(frame);
    const target = new HelperChild({
      release: () => write(encodeFrame(RELEASE, id)),
      wantMore: () => {
        if (!current.full.delete(target) || current.full.size > 0) return;
        (current.process.stdout as Socket | null)?.resume();
      },
      ...(spawnOptions.stdin === "pipe"
        ? {
            stdin: {
              write: (bytes) => write(encodeFrame(STDIN, id, bytes)),
              end: () => write(encodeFrame(STDIN_END, id)),
            },
          }
        : {}),
      killOnLoss: options.killOnLoss ?? true,
    });
    current.children.set(id, target);
    busy(current);
    const forget = () => {
      current.children.delete(id);
      current.full.delete(target);
      if (current.children.size > 0) return;
      idle(current);
      if (current.retired) current.process.stdin?.end();
    };
    target.once("close", forget);
    target.once("error", forget);
    const { placement } = options;
    const procs = spawnOptions.cgroupProcs;
    if (placement === undefined || procs === undefined) {
      write(encodeFrame(SPAWN, id, Buffer.from(JSON.stringify({ file, args, ...spawnOptions }))));
      return target;
    }
    const { cgroupProcs: _, ...request } = spawnOptions;
    const job = { id, procs, request: { file, args, ...request }, placement };
    current.placing = current.placing.then(() => place(current, target, job));
    return target;
  };

  /**
   * One placed spawn: into the group, SPAWN, wait until it started (or not), out again. A spare
   * that was in the group but is gone by the time the request arrives is reported, and the
   * request is placed again, by the helper this time.
   */
  const place = async (
    current: Helper,
    target: HelperChild,
    job: { id: number; procs: string; request: object; placement: Placement },
  ): Promise<void> => {
    if (!current.children.has(job.id)) return; // the helper died meanwhile: lost() told it
    let moved = false;
    try {
      for (;;) {
        const placed = await job.placement.enter(job.procs).catch(() => undefined);
        if (placed === undefined) {
          current.children.delete(job.id);
          target.failed(new Error("could not move the command into its pids cgroup"));
          return;
        }
        moved ||= placed.moved;
        const outcome = new Promise<"started" | "again">((resolve) => {
          for (const event of ["spawn", "error", "exit"]) target.once(event, () => resolve("started"));
          current.unspared.set(job.id, () => resolve("again"));
        });
        const spare = placed.spare === undefined ? {} : { spare: placed.spare };
        current.process.stdin?.write(
          encodeFrame(SPAWN, job.id, Buffer.from(JSON.stringify({ ...job.request, ...spare }))),
        );
        const result = await outcome;
        current.unspared.delete(job.id);
        if (result === "started" || placed.spare === undefined) return;
      }
    } finally {
      if (moved) job.placement.leave(job.procs);
    }
  };

  return {
    spawn: spawnCommand,
    get pid() {
      return helper?.process.pid;
    },
    dispose() {
      disposed = true;
      helper?.process.stdin?.end();
    },
    warm() {
      if (!disposed) helper ??= launch();
    },
    retire() {
      if (helper) retire(helper);
    },
  };
}
