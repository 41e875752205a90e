import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
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

export type ProcessStatus = "running" | "completed" | "failed" | "killed" | "timed_out";

/** A command left running after the call that started it returned. */
export interface BackgroundProcess {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  /** What the model said the command is for, where its tool asks. */
  readonly description?: string;
  /** The harness whose tool started it. */
  readonly owner?: string;
  /** The tool call that started it. */
  readonly callId?: string;
  /** `Date.now()` when it started, and when it ended. */
  readonly startedAt: number;
  readonly endedAt?: number;
  /** Its own time limit, when it has one. */
  readonly timeoutMs?: number;
  /** Where all its output is appended as it arrives (up to the table's file cap), when the caller asked for a file. */
  readonly outputFile?: string;
  readonly status: ProcessStatus;
  /** Set once it has ended. */
  readonly exit?: ExecResult;
  /** The process group it leads, once it runs. */
  readonly pid?: number;
  /** Bytes of output so far. */
  readonly outputBytes: number;
  /** Why a tool stopped it, when one did. */
  readonly stopReason?: string;
  /** Whether its end is still to be reported to the session (see `silence`). */
  readonly notify: boolean;
  /** The last bytes of its output (at most 8 KiB), for notices that quote the end of it. */
  tail(): string;
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
  /** Resolves once its process group id is known, or it ended without one. */
  running(): Promise<void>;
  /** Its end will not be reported: the model was told already (a wait returned it, a tool stopped it). */
  silence(): void;
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
  owner?: string;
  callId?: string;
  /** Kills it (status `timed_out`) after this long; no limit when absent. */
  timeoutMs?: number;
  /** Append all output here as it arrives (the folder is created). */
  outputFile?: string;
  /** Report its end to the table's `onEnd` (a background task the model is told about). */
  notify?: boolean;
  /** Sees every chunk of output for the whole life of the process. */
  watch?: (chunk: string) => void;
}

/** Bytes of the end of the output kept for `tail()`. */
const TAIL_BYTES = 8192;

export class ProcessEntry implements BackgroundProcess {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly description?: string;
  readonly owner?: string;
  readonly callId?: string;
  readonly timeoutMs?: number;
  readonly startedAt = Date.now();
  endedAt: number | undefined;
  readonly outputFile?: string;
  exit: ExecResult | undefined;
  pid: number | undefined;
  outputBytes = 0;
  stopReason: string | undefined;
  notify: boolean;
  #killed = false;
  #pending: BoundedOutput;
  #tail = Buffer.alloc(0);
  #listener: ((chunk: string) => void) | undefined;
  readonly #done: Promise<void>;
  readonly #running: Promise<void>;
  readonly #life: AbortSignal;
  readonly #kill = new AbortController();
  readonly #cap: number;
  /** The output file, open for appending until the process ends; closed before `#done` settles. */
  #file: WriteStream | undefined;

  constructor(
    id: string,
    options: StartOptions,
    limits: { outputCap: number; fileCap: number },
    onEnd: (entry: ProcessEntry) => void,
  ) {
    this.id = id;
    this.command = options.command;
    this.cwd = options.cwd;
    if (options.description !== undefined) this.description = options.description;
    if (options.owner !== undefined) this.owner = options.owner;
    if (options.callId !== undefined) this.callId = options.callId;
    if (options.timeoutMs !== undefined) this.timeoutMs = options.timeoutMs;
    if (options.outputFile !== undefined) this.outputFile = options.outputFile;
    this.notify = options.notify ?? false;
    this.#cap = limits.outputCap;
    this.#pending = new BoundedOutput(this.#cap);
    this.#life = AbortSignal.any([options.signal, this.#kill.signal]);
    const file = options.outputFile;
    if (file) this.#file = openOutput(file);
    let markRunning = () => {};
    this.#running = new Promise((resolve) => {
      markRunning = resolve;
    });
    const run = options.exec.run({
      command: options.command,
      cwd: options.cwd,
      timeoutMs: options.timeoutMs ?? Number.POSITIVE_INFINITY,
      signal: this.#life,
      onStart: (pid) => {
        this.pid = pid;
        markRunning();
      },
      onOutput: (chunk) => {
        const bytes = Buffer.from(chunk, "utf8");
        const before = this.outputBytes;
        this.outputBytes += bytes.length;
        this.#pending.push(bytes);
        this.#keepTail(bytes);
        this.#save(chunk, before, limits.fileCap);
        options.watch?.(chunk);
        this.#listener?.(chunk);
      },
    });
    this.#done = run
      .catch((error: unknown): ExecResult => ({ ...NOT_RUN, output: `could not run: ${String(error)}\n` }))
      .then(async (result) => {
        await closeOutput(this.#file);
        this.exit = result;
        this.endedAt = Date.now();
        markRunning();
        if (this.notify) onEnd(this);
      });
  }

  get status(): ProcessStatus {
    if (!this.exit) return "running";
    if (this.#killed || this.exit.aborted) return "killed";
    if (this.exit.timedOut) return "timed_out";
    return this.exit.exitCode === 0 ? "completed" : "failed";
  }

  tail(): string {
    return this.#tail.toString("utf8").replace(/^\uFFFD+/, "");
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

  running(): Promise<void> {
    return this.#running;
  }

  silence(): void {
    this.notify = false;
  }

  /** Its signal aborted and the kill is under way. */
  get dying(): boolean {
    return this.#life.aborted && !this.exit;
  }

  kill(reason?: string): Promise<void> {
    if (!this.exit) {
      this.#killed = true;
      if (reason !== undefined) this.stopReason = reason;
    }
    this.#kill.abort();
    return this.#done;
  }

  #keepTail(bytes: Buffer): void {
    const joined = Buffer.concat([this.#tail, bytes]);
    this.#tail =
      joined.length > TAIL_BYTES ? Buffer.from(joined.subarray(joined.length - TAIL_BYTES)) : joined;
  }

  /** Appends to the file up to its cap, then one line saying the rest was not kept. */
  #save(chunk: string, before: number, cap: number): void {
    if (!this.#file || before >= cap) return;
    if (this.outputBytes <= cap) {
      this.#file.write(chunk);
      return;
    }
    const kept = Buffer.from(chunk, "utf8").subarray(0, cap - before);
    this.#file.write(kept);
    this.#file.write(`\n[output past ${cap} bytes was not saved]\n`);
  }
}

/**
 * The output file, created empty at once (a tool may name it before any output came). A file
 * that cannot be written loses the output, never the process: its errors are dropped.
 */
function openOutput(file: string): WriteStream | undefined {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch {
    return undefined;
  }
  const stream = createWriteStream(file, { flags: "a" });
  stream.on("error", () => {});
  return stream;
}

function closeOutput(stream: WriteStream | undefined): Promise<void> {
  if (!stream || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once("close", () => resolve());
    stream.end();
  });
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
    const timer = setTimeout(finish, Math.min(ms, 2_147_483_647));
    signal.addEventListener("abort", finish, { once: true });
    void done.then(finish, finish);
  });
}

/**
 * Waits until one of `processes` has ended (the first to end is returned), `ms` passes or
 * `signal` aborts (undefined then). Leaves every process running.
 */
export async function firstEnded(
  processes: readonly BackgroundProcess[],
  ms: number,
  signal: AbortSignal,
): Promise<BackgroundProcess | undefined> {
  const done = processes.find((p) => p.exit);
  if (done || processes.length === 0) return done;
  let winner: BackgroundProcess | undefined;
  const any = Promise.race(processes.map((p) => p.ended().then(() => p))).then((p) => {
    winner = p;
  });
  await waitFor(any, ms, signal);
  return winner;
}
