import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, existsSync, statSync } from "node:fs";
import path from "node:path";
import type { SpawnCommandOptions } from "./spawned-process.js";
import { joinCgroup } from "./start-child.js";

/**
 * Where the spare shell lives. dash only: its `export` takes any portable name, nothing of its
 * own is read-only, and `exec` hands on exactly what was exported (PWD and OLDPWD aside, which
 * the script unsets). bash as `sh` would add `_` and refuse names such as `UID`.
 */
const DASH = ["/usr/bin/dash", "/bin/dash"];

/** Names `export` accepts; a request with any other name takes the ordinary spawn. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Quiet time before the next spare is forked. A command that comes sooner (a scripted model
 * that answers at once, many sessions at once) takes the ordinary spawn: forking the spare
 * right after each command competes with the daemon's work on its result and slows closely
 * spaced commands on two cores; waiting for a pause keeps the gain for commands that a model's
 * thinking separates (docs/performance.md).
 */
const IDLE_MS = 20;

/** The code of a FAILED frame for a request whose placed spare is gone: it is placed again. */
export const SPARE_GONE = "ESPAREGONE";

export interface SpareShellOptions {
  /**
   * An execute-only copy of the ELF loader to start dash through (the confined helper's own,
   * helper-files.ts): a process whose program file it cannot read is not dumpable, so the
   * commands running beside the waiting spare in the sandbox cannot open its `/proc/<pid>/fd`
   * (its stdin, and the pipes that become the next command's output) or ptrace it. Its `exec`
   * of the command makes the command an ordinary, dumpable process again.
   */
  loader?: string;
  /** A new spare is waiting (its pid): the confined helper tells the daemon, which places it. */
  onReady?: (pid: number) => void;
  /** Quiet time before the next spare is forked. Default `IDLE_MS`. */
  idleMs?: number;
  /** How many spares are kept waiting. Default 1. */
  count?: number;
}

/**
 * A dash started ahead of time, waiting on its stdin, that becomes the next command: it is
 * handed a one-line script that changes directory, exports the command's environment and
 * `exec`s the command with stdin from /dev/null and the optional fd 3. Node's `spawn` blocks
 * for a fork of this whole process (the command's own start aside); writing a few hundred bytes
 * to a waiting shell blocks for far less, and the shell's `exec` costs what the fork's would
 * have. The next spare is forked once the helper has been idle for a moment.
 *
 * The spare was started detached, with pipes for stdout and stderr, as `startChild` starts a
 * command: once it execs, the command is the process `startChild` would have made. Requests
 * the script cannot carry exactly (a relative program, an unusual variable name, a NUL byte, a
 * missing directory, program or fd-3 file) go the ordinary way, which reports such failures.
 * A spare whose stdin closes (its helper is gone) exits.
 */
export class SpareShell {
  readonly #dash = DASH.find((file) => existsSync(file));
  readonly #options: SpareShellOptions;
  readonly #waiting: ChildProcess[] = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(options: SpareShellOptions = {}) {
    this.#options = options;
  }

  /**
   * Forks one more spare unless enough are waiting or there is no dash, and schedules the next
   * when still short. Blocks for that one fork.
   */
  refill(): void {
    if (this.#waiting.length >= (this.#options.count ?? 1) || !this.#dash) return;
    const { loader, onReady } = this.#options;
    const [file, args] = loader === undefined ? [this.#dash, ["-s"]] : [loader, [this.#dash, "-s"]];
    const shell = spawn(file, args, { stdio: ["pipe", "pipe", "pipe"], detached: true, env: {} });
    shell.on("error", () => {}); // no pid: it is not kept; a later refill tries again
    if (shell.pid === undefined) return;
    // Killed by someone else just before its exit was seen: the hand-over meets a closed pipe,
    // and the command reports the signal that ended the process meant to run it.
    shell.stdin?.on("error", () => {});
    shell.once("exit", () => this.#forget(shell));
    this.#waiting.push(shell);
    onReady?.(shell.pid);
    if (this.#waiting.length < (this.#options.count ?? 1)) this.refillWhenIdle();
  }

  /**
   * The command, started by the waiting spare, or `undefined` when there is none or the
   * request must take the ordinary spawn. With `cgroupProcs`, the spare joins that group
   * before it runs anything, so the command starts inside it. With `expected`, only the spare
   * of that pid is taken (the one the daemon moved into the command's group).
   */
  take(
    file: string,
    args: string[],
    options: SpawnCommandOptions,
    expected?: number,
  ): ChildProcess | undefined {
    // A spare is forgotten by its 'exit' handler once it is seen to be gone.
    const shell = this.#waiting.find((spare) => expected === undefined || spare.pid === expected);
    if (!shell?.stdin) return undefined;
    const script = handOverScript(file, args, options);
    if (script === undefined || !ready(file, options)) return undefined;
    this.#forget(shell);
    if (options.cgroupProcs !== undefined) joinCgroup(options.cgroupProcs, shell.pid as number);
    shell.stdin.end(script);
    return shell;
  }

  /** Forks the next spare once no command has started or ended for `IDLE_MS`; call on each. */
  refillWhenIdle(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.refill(), this.#options.idleMs ?? IDLE_MS);
    this.#timer.unref();
  }

  /** Ends the waiting spares (they would end by themselves once this process is gone). */
  dispose(): void {
    clearTimeout(this.#timer);
    for (const shell of this.#waiting.splice(0)) shell.kill("SIGKILL");
  }

  #forget(shell: ChildProcess): void {
    const at = this.#waiting.indexOf(shell);
    if (at >= 0) this.#waiting.splice(at, 1);
  }
}

/**
 * The one line that turns a waiting dash into the command, or `undefined` when the request
 * cannot be written as one exactly. Every word is single-quoted, so nothing in it is expanded;
 * newlines inside quotes are part of the word, and dash parses the whole line before running
 * any of it (the `</dev/null` applies to the command only).
 */
export function handOverScript(
  file: string,
  args: string[],
  options: SpawnCommandOptions,
): string | undefined {
  const { cwd, env, fd3File } = options;
  if (!path.isAbsolute(file) || !Object.keys(env).every((name) => NAME.test(name))) return undefined;
  const words = [file, ...args, cwd, ...Object.values(env), fd3File ?? ""];
  if (words.some((word) => word.includes("\0"))) return undefined;
  const exports = Object.entries(env).map(([name, value]) => `export ${quote(`${name}=${value}`)}`);
  const fd3 = fd3File === undefined ? "" : ` 3<${quote(fd3File)}`;
  const command = `exec ${[file, ...args].map(quote).join(" ")} </dev/null${fd3}`;
  return `${[`cd -- ${quote(cwd)} || exit 127`, "unset PWD OLDPWD", ...exports, command].join("; ")}\n`;
}

function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** What `spawn` would otherwise fail on, checked before the spare is committed to it. */
function ready(file: string, { cwd, fd3File }: SpawnCommandOptions): boolean {
  try {
    if (!statSync(cwd).isDirectory() || !statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    if (fd3File !== undefined) accessSync(fd3File, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}
