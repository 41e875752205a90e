import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { ExecPort, ExecResult } from "../types.js";
import { BoundedOutput, type BoundedText } from "./bounded-output.js";

/** What one look at a background process returns: its output since the last look, and its end if it came. */
export interface ProcessChunk {
  /**
   * Output since the previous chunk, head and tail kept within the table's cap and joined
   * directly (`droppedBytes` says how much is missing between them).
   */
  output: BoundedText;
  /** Set once the process has ended (its exit code, signal, timeout or abort). */
  exit?: ExecResult;
  /** Milliseconds this look waited. */
  waitedMs: number;
}

export type ProcessStatus = "running" | "completed" | "failed" | "killed";

/** A command left running after the call that started it returned. */
export interface BackgroundProcess {
  readonly id: string;
  readonly command: string;
  /** What the model said the command is for, where its tool asks. */
  readonly description?: string;
  /** `Date.now()` when it started. */
  readonly startedAt: number;
  /** Where all its output is appended as it arrives, when the caller asked for a file. */
  readonly outputFile?: string;
  readonly status: ProcessStatus;
  /** Set once it has ended. */
  readonly exit?: ExecResult;
  /**
   * Waits until the process ends or `waitMs` passes (or `signal` aborts the wait, which leaves
   * the process running unless its own life ended too), then returns the output since the
   * previous look. Live output goes to `onOutput` while it waits.
   */
  next(options: {
    waitMs: number;
    signal: AbortSignal;
    onOutput?: (chunk: string) => void;
  }): Promise<ProcessChunk>;
  /** Resolves once it has ended and its output file (if any) is written. */
  ended(): Promise<void>;
}

export interface StartOptions {
  exec: ExecPort;
  command: string;
  cwd: string;
  /**
   * The process's whole life: it is killed with its process tree when this aborts. The turn's
   * signal (which ends with the turn) for Codex's sessions; the session's for background tasks
   * that outlive turns.
   */
  signal: AbortSignal;
  /** Its id, chosen by the harness in its original's format (default: Codex's, 1000 to 99999). */
  id?: (taken: (id: string) => boolean) => string;
  description?: string;
  /** Append all output here as it arrives (the folder is created). */
  outputFile?: string;
}

/**
 * Commands that keep running between tool calls: Codex's unified exec sessions, Claude Code's,
 * Kimi Code's and Gemini CLI's background commands. One table per session; what a process lives
 * for is its `signal`. Output waiting to be read is bounded per process; at most `maxLive` are
 * kept, an ended one or else the least recently used being killed and dropped to make room (never
 * one of the 8 newest, as Codex prunes).
 */
export class BackgroundProcesses {
  readonly #live = new Map<string, Entry>();
  readonly #maxLive: number;
  readonly #outputCap: number;
  readonly #random: () => number;

  constructor(options: { maxLive?: number; outputCap?: number; random?: () => number } = {}) {
    this.#maxLive = options.maxLive ?? 64;
    this.#outputCap = options.outputCap ?? 1024 * 1024;
    this.#random = options.random ?? Math.random;
  }

  /** Starts `command`; look at it with `next()`, or find it later by its id with `get()`. */
  start(options: StartOptions): BackgroundProcess {
    this.#makeRoom();
    const taken = (id: string) => this.#live.has(id);
    const id = (options.id ?? this.#codexId)(taken);
    const entry = new Entry(id, options, this.#outputCap);
    this.#live.set(id, entry);
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
    return [...this.#live.values()].sort((a, b) => a.startedAt - b.startedAt);
  }

  /** Drops an ended process (Codex forgets a session once its end was reported). */
  forget(id: string): void {
    if (this.#live.get(id)?.exit) this.#live.delete(id);
  }

  /** Kills one process with its tree; resolves once it has ended. Undefined when no such id. */
  kill(id: string): Promise<void> | undefined {
    return this.#live.get(id)?.kill();
  }

  /** Kills every process still running and waits until each has ended. */
  async killAll(): Promise<void> {
    await Promise.all([...this.#live.values()].map((entry) => entry.kill()));
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

class Entry implements BackgroundProcess {
  readonly id: string;
  readonly command: string;
  readonly description?: string;
  readonly startedAt = Date.now();
  readonly outputFile?: string;
  exit: ExecResult | undefined;
  #killed = false;
  #pending: BoundedOutput;
  #listener: ((chunk: string) => void) | undefined;
  readonly #done: Promise<void>;
  readonly #life: AbortSignal;
  readonly #kill = new AbortController();
  readonly #cap: number;
  /** Appends to the output file in order; settled before `#done`. */
  #writes: Promise<void> = Promise.resolve();

  constructor(id: string, options: StartOptions, cap: number) {
    this.id = id;
    this.command = options.command;
    if (options.description !== undefined) this.description = options.description;
    if (options.outputFile !== undefined) this.outputFile = options.outputFile;
    this.#cap = cap;
    this.#pending = new BoundedOutput(cap);
    this.#life = AbortSignal.any([options.signal, this.#kill.signal]);
    const file = options.outputFile;
    if (file) this.#writes = mkdir(path.dirname(file), { recursive: true }).then(() => appendFile(file, ""));
    const run = options.exec.run({
      command: options.command,
      cwd: options.cwd,
      timeoutMs: Number.POSITIVE_INFINITY,
      signal: this.#life,
      onOutput: (chunk) => {
        this.#pending.push(Buffer.from(chunk, "utf8"));
        if (file) this.#writes = this.#writes.then(() => appendFile(file, chunk));
        this.#listener?.(chunk);
      },
    });
    this.#done = run
      .catch((error: unknown): ExecResult => ({ ...NOT_RUN, output: `could not run: ${String(error)}\n` }))
      .then(async (result) => {
        await this.#writes.catch(() => undefined);
        this.exit = result;
      });
  }

  get status(): ProcessStatus {
    if (!this.exit) return "running";
    if (this.#killed || this.exit.aborted) return "killed";
    return this.exit.exitCode === 0 ? "completed" : "failed";
  }

  async next(options: {
    waitMs: number;
    signal: AbortSignal;
    onOutput?: (chunk: string) => void;
  }): Promise<ProcessChunk> {
    const started = performance.now();
    this.#listener = options.onOutput;
    try {
      if (!this.exit) await waitFor(this.#done, options.waitMs, options.signal);
      // A process whose life ended is being killed: answer once it is gone, never before.
      if (this.#life.aborted) await this.#done;
    } finally {
      this.#listener = undefined;
    }
    const output = this.#pending.finish(() => "");
    this.#pending = new BoundedOutput(this.#cap);
    return {
      output,
      ...(this.exit ? { exit: this.exit } : {}),
      waitedMs: performance.now() - started,
    };
  }

  ended(): Promise<void> {
    return this.#done;
  }

  /** Its signal aborted and the kill is under way. */
  get dying(): boolean {
    return this.#life.aborted && !this.exit;
  }

  kill(): Promise<void> {
    if (!this.exit) this.#killed = true;
    this.#kill.abort();
    return this.#done;
  }
}

const NOT_RUN: ExecResult = {
  exitCode: 127,
  signal: null,
  timedOut: false,
  aborted: false,
  durationMs: 0,
  output: "",
  droppedBytes: 0,
  totalBytes: 0,
  totalLines: 0,
};

/** Resolves when `done` settles, `ms` passes or `signal` aborts, whichever comes first. */
function waitFor(done: Promise<void>, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener("abort", finish, { once: true });
    void done.then(finish, finish);
  });
}
