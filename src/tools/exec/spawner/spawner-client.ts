import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";
import { encodeFrame, FrameReader } from "./frame-reader.js";
import { CLOSE, EXIT, FAILED, RELEASE, SPAWN, SPAWNED, STDERR, STDOUT } from "./frame-types.js";
import { HelperChild } from "./helper-child.js";
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
}

export interface Spawner {
  /** Starts a command through the helper; a drop-in for run-command's `spawn` option. */
  spawn: SpawnCommand;
  /** The helper's pid while it runs (diagnostics and tests). */
  readonly pid: number | undefined;
  /** Ends the helper (stdin EOF: it kills what still runs and exits); later spawns fail. */
  dispose(): void;
}

interface Helper {
  process: ChildProcess;
  children: Map<number, HelperChild>;
  /** Streams whose buffer is full: the helper's output waits until they want more. */
  full: Set<HelperChild>;
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
    const child = spawn(process.execPath, ["--max-semi-space-size=1", program], {
      cwd: "/",
      env: options.env ?? {},
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group: a Ctrl-C meant for the daemon's terminal is the daemon's to handle.
      detached: true,
    });
    const current: Helper = { process: child, children: new Map(), full: new Set() };
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

  const idle = (current: Helper) => {
    current.process.unref();
    for (const stream of [current.process.stdin, current.process.stdout, current.process.stderr]) {
      (stream as Socket | null)?.unref();
    }
  };
  const busy = (current: Helper) => {
    current.process.ref();
    (current.process.stdout as Socket | null)?.ref();
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
    const target = new HelperChild({
      release: () => current.process.stdin?.write(encodeFrame(RELEASE, id)),
      wantMore: () => {
        if (!current.full.delete(target) || current.full.size > 0) return;
        (current.process.stdout as Socket | null)?.resume();
      },
    });
    current.children.set(id, target);
    busy(current);
    const forget = () => {
      current.children.delete(id);
      current.full.delete(target);
      if (current.children.size === 0) idle(current);
    };
    target.once("close", forget);
    target.once("error", forget);
    current.process.stdin?.write(
      encodeFrame(SPAWN, id, Buffer.from(JSON.stringify({ file, args, ...spawnOptions }))),
    );
    return target;
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
  };
}
