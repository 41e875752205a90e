import type { EventEmitter } from "node:events";
import type { Readable, Writable } from "node:stream";

/**
 * What run-command needs of a started command: node's `ChildProcess` has this shape, and so does
 * a command started by the spawn helper. Events as node's: 'spawn' once the pid is known,
 * 'error' when the command could not start (then nothing else), 'exit' (code, signal) when the
 * process ended, 'close' after 'exit' once stdout and stderr have closed too.
 */
export interface SpawnedProcess extends EventEmitter {
  readonly pid?: number | undefined;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Only with `stdin: "pipe"`; otherwise stdin is /dev/null. */
  readonly stdin?: Writable | null;
}

export interface SpawnCommandOptions {
  cwd: string;
  env: Record<string, string>;
  /** A file the command gets open, read-only, as file descriptor 3 (bwrap's `--seccomp 3`). */
  fd3File?: string;
  /** A cgroup's `cgroup.procs` file, right below the spawner's own group: the command starts in it. */
  cgroupProcs?: string;
  /**
   * A pipe for stdin instead of /dev/null: for a long-lived helper the daemon talks to (the
   * sandbox's confined spawn helper), never for a model's command.
   */
  stdin?: "pipe";
}

/**
 * Starts `file` with `args`: stdin /dev/null, stdout and stderr piped, leading its own process
 * group (detached), so the process tree can be signalled as a group. Never throws for a command
 * that cannot start: that is an 'error' event.
 */
export type SpawnCommand = (file: string, args: string[], options: SpawnCommandOptions) => SpawnedProcess;
