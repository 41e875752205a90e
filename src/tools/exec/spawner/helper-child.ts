import { EventEmitter } from "node:events";
import { Readable, Writable } from "node:stream";
import type { SpawnedProcess } from "./spawned-process.js";

export interface HelperChildHooks {
  /** The daemon no longer reads this command's output: the helper may close its pipes. */
  release(): void;
  /** A stream that was full wants more data. */
  wantMore(): void;
  /** Present for a command spawned with `stdin: "pipe"`: bytes for it, and its end. */
  stdin?: { write(bytes: Buffer): void; end(): void };
  /**
   * Whether a command whose helper died is killed by its process group from here. Not for a
   * helper inside a pid namespace: its pids mean nothing here, and its commands died with it.
   */
  killOnLoss?: boolean;
}

/**
 * A command started by the spawn helper, as seen by the daemon: the helper's frames turned into
 * node's ChildProcess events and streams. 'close' follows 'exit' once both streams closed, be it
 * because the helper reported its pipes closed or because the reader destroyed them.
 */
export class HelperChild extends EventEmitter implements SpawnedProcess {
  pid: number | undefined;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly stdin: Writable | null;
  readonly #killOnLoss: boolean;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #open = 2;
  #ended = false;
  #done = false;

  constructor(hooks: HelperChildHooks) {
    super();
    const stream = () => {
      const readable = new Readable({
        read: () => hooks.wantMore(),
        destroy: (error, callback) => {
          if (!this.#ended) hooks.release();
          callback(error);
        },
      });
      readable.once("close", () => {
        this.#open--;
        this.#maybeClose();
      });
      return readable;
    };
    this.stdout = stream();
    this.stderr = stream();
    const input = hooks.stdin;
    this.stdin = input
      ? new Writable({
          write: (chunk: Buffer, _encoding, callback) => {
            input.write(chunk);
            callback();
          },
          final: (callback) => {
            input.end();
            callback();
          },
        })
      : null;
    this.#killOnLoss = hooks.killOnLoss ?? true;
  }

  spawned(pid: number): void {
    this.pid = pid;
    this.emit("spawn");
  }

  failed(error: Error): void {
    this.#done = true;
    this.emit("error", error);
  }

  /** Returns false when the stream's buffer is full (its reader is slow). */
  data(stream: 1 | 2, bytes: Buffer): boolean {
    const target = stream === 1 ? this.stdout : this.stderr;
    if (this.#ended || target.destroyed) return true;
    return target.push(bytes);
  }

  exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#exit || this.#done) return;
    this.#exit = { code, signal };
    this.emit("exit", code, signal);
    // As node does: output nobody reads is drained, so 'close' can come.
    for (const stream of [this.stdout, this.stderr]) if (stream.readableFlowing === null) stream.resume();
    this.#maybeClose();
  }

  /** The helper reported both pipes closed: end the streams (after the data already pushed). */
  closed(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const stream of [this.stdout, this.stderr]) if (!stream.destroyed) stream.push(null);
  }

  /**
   * The helper died with this command in flight: nobody can read its pipes any more, so it is
   * killed (its group; run-command's sweep gets any stray) and reported as killed, with a note.
   */
  lost(reason: string): void {
    if (this.#done) return;
    if (this.pid === undefined) {
      this.failed(new Error(`${reason} before the command started`));
      return;
    }
    if (!this.#exit) {
      try {
        if (this.#killOnLoss) process.kill(-this.pid, "SIGKILL");
      } catch {
        // ESRCH: it ended on its own.
      }
      this.data(2, Buffer.from(`\n[${reason}; the command was killed]\n`));
      this.exited(null, "SIGKILL");
    }
    this.closed();
  }

  #maybeClose(): void {
    if (this.#done || !this.#exit || this.#open > 0) return;
    this.#done = true;
    this.emit("close", this.#exit.code, this.#exit.signal);
  }
}
