import { type BackgroundProcess, ProcessEntry, type StartOptions } from "./background-process.js";

export type { BackgroundProcess, ProcessChunk, ProcessStatus, StartOptions } from "./background-process.js";
export { firstEnded } from "./background-process.js";

/** Bytes of one process's output its file keeps at most (the disk is not the model's to fill). */
export const OUTPUT_FILE_CAP = 64 * 1024 * 1024;

/**
 * Commands that keep running between tool calls: Codex's unified exec sessions, Claude Code's,
 * Kimi Code's, Gemini CLI's and Qwen Code's background commands. One table per session; what a
 * process lives for is its `signal`. Output waiting to be read is bounded per process; at most
 * `maxLive` are kept, an ended one or else the least recently used being killed and dropped to
 * make room (never one of the 8 newest, as Codex prunes).
 */
export class BackgroundProcesses {
  readonly #live = new Map<string, ProcessEntry>();
  readonly #maxLive: number;
  readonly #limits: { outputCap: number; fileCap: number };
  readonly #random: () => number;
  readonly #onEnd: (process: BackgroundProcess) => void;
  /** Start order: two processes may start within the same millisecond. */
  readonly #order = new WeakMap<BackgroundProcess, number>();
  #started = 0;

  constructor(
    options: {
      maxLive?: number;
      outputCap?: number;
      fileCap?: number;
      random?: () => number;
      /**
       * Told when a process started with `notify` has ended (its output file complete), unless
       * it was silenced first. Never called for what `killAll` ends.
       */
      onEnd?: (process: BackgroundProcess) => void;
    } = {},
  ) {
    this.#maxLive = options.maxLive ?? 64;
    this.#limits = {
      outputCap: options.outputCap ?? 1024 * 1024,
      fileCap: options.fileCap ?? OUTPUT_FILE_CAP,
    };
    this.#random = options.random ?? Math.random;
    this.#onEnd = options.onEnd ?? (() => {});
  }

  /** Starts `command`; look at it with `next()`, or find it later by its id with `get()`. */
  start(options: StartOptions): BackgroundProcess {
    this.#makeRoom();
    const taken = (id: string) => this.#live.has(id);
    const id = (options.id ?? this.#codexId)(taken);
    const entry = new ProcessEntry(id, options, this.#limits, (ended) => this.#onEnd(ended));
    this.#live.set(id, entry);
    this.#order.set(entry, this.#started++);
    return entry;
  }

  /** The process with this id; a look at it makes it the most recently used. */
  get(id: string): BackgroundProcess | undefined {
    const entry = this.#live.get(id);
    if (entry) {
      this.#live.delete(id);
      this.#live.set(id, entry);
    }
    return entry;
  }

  /** Every process kept, oldest first. */
  list(): BackgroundProcess[] {
    const order = (p: BackgroundProcess) => this.#order.get(p) ?? 0;
    return [...this.#live.values()].sort((a, b) => order(a) - order(b));
  }

  /** Drops an ended process (Codex forgets a session once its end was reported). */
  forget(id: string): void {
    if (this.#live.get(id)?.exit) this.#live.delete(id);
  }

  /**
   * Kills one process with its tree (`reason` says why, for tools that show it); resolves once it
   * has ended. Undefined when no such id.
   */
  kill(id: string, reason?: string): Promise<void> | undefined {
    return this.#live.get(id)?.kill(reason);
  }

  /** Kills every process still running, reporting none of them, and waits until each has ended. */
  async killAll(): Promise<void> {
    const entries = [...this.#live.values()];
    for (const entry of entries) entry.silence();
    await Promise.all(entries.map((entry) => entry.kill()));
  }

  /** Waits until every process whose life has ended (its signal aborted) is gone. */
  async settled(): Promise<void> {
    await Promise.all([...this.#live.values()].filter((entry) => entry.dying).map((entry) => entry.ended()));
  }

  #codexId = (taken: (id: string) => boolean): string => {
    for (;;) {
      const id = String(1000 + Math.floor(this.#random() * 99_000));
      if (!taken(id)) return id;
    }
  };

  #makeRoom(): void {
    if (this.#live.size < this.#maxLive) return;
    const candidates = [...this.#live.values()].slice(0, -8);
    const victim = candidates.find((entry) => entry.exit) ?? candidates[0];
    if (!victim) return;
    void victim.kill();
    this.#live.delete(victim.id);
  }
}
