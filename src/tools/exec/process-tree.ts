import { existsSync } from "node:fs";
import { descendantsOf, type ProcEntry, readProc, readProcTable } from "./proc-table.js";

/** What run-command kills when a command is cancelled, times out or ends. */
export interface CommandTree {
  startTracking(intervalMs: number): void;
  stopTracking(): void;
  /** SIGTERM, then SIGKILL after `graceMs` to whatever is left. Never rejects. */
  kill(graceMs: number): Promise<void>;
  /** SIGKILL to whatever is left. */
  sweep(): void;
  /** The command itself exited on its own (a tree that dies with it kills the rest now). */
  exited?(): void;
}

/** How long a kill waits for SIGKILLed processes to be gone before it answers anyway. */
const KILL_SETTLE_MS = 2_000;

/**
 * Everything a spawned command started: its process group (the command is spawned detached, so
 * its pid is the group id) plus every descendant that left the group (`setsid`, `nohup … &` in a
 * new session, `setpgid`). Descendants are found by walking `/proc/<pid>/stat` parent links at
 * kill time, and also sampled while the command runs, so that a process whose parent has
 * already exited (and which was re-parented to init) is still known and can be killed. Pids
 * are remembered with their start time, so a reused pid is never signalled.
 *
 * Limit: a double fork into a new session that completes between two samples, after its parent
 * exited, leaves no trace we can follow. Only a pid namespace (bubblewrap `--unshare-pid`,
 * where the whole namespace dies with its init) or a cgroup catches that reliably.
 */
export class ProcessTree implements CommandTree {
  readonly #root: number;
  readonly #rootStart: string | undefined;
  /** Descendants seen so far: pid → start time. Pruned as they exit, so it stays small. */
  readonly #known = new Map<number, string>();
  /** Without /proc (macOS), only the process group can be followed. */
  readonly #haveProc = existsSync("/proc/self/stat");
  #timer: NodeJS.Timeout | undefined;

  constructor(rootPid: number) {
    this.#root = rootPid;
    this.#rootStart = readProc(rootPid)?.startTime;
  }

  /** Samples the tree every `intervalMs` until `stopTracking()`; never keeps the daemon alive. */
  startTracking(intervalMs: number): void {
    this.stopTracking();
    this.#timer = setInterval(() => this.members(), intervalMs);
    this.#timer.unref();
  }

  stopTracking(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Live members now (one /proc walk), remembering every one of them for later. */
  members(): ProcEntry[] {
    // Every member descends from the root, a group member or a known pid: when none of those
    // is alive there is nothing to find, and the walk over all of /proc (a few ms) is skipped.
    if (this.#haveProc && this.#noRootLeft()) return [];
    const table = readProcTable();
    const byPid = new Map(table.map((entry) => [entry.pid, entry]));
    const isSame = (pid: number, start: string | undefined) => byPid.get(pid)?.startTime === start;
    const roots: number[] = [];
    if (this.#rootStart !== undefined && isSame(this.#root, this.#rootStart)) roots.push(this.#root);
    for (const [pid, start] of this.#known) {
      if (isSame(pid, start)) roots.push(pid);
      else this.#known.delete(pid);
    }
    // A group cannot outlive its last member, and the kernel does not hand out a pid that is
    // still some group's id: whoever is in our group is ours.
    for (const entry of table) if (entry.pgid === this.#root) roots.push(entry.pid);
    const members: ProcEntry[] = [];
    for (const pid of descendantsOf(roots, table)) {
      const entry = byPid.get(pid);
      if (!entry || entry.zombie || pid === process.pid || pid <= 1) continue;
      this.#known.set(pid, entry.startTime);
      members.push(entry);
    }
    return members;
  }

  /** Sends `signal` to the group and to every member outside it. */
  signal(signal: NodeJS.Signals): ProcEntry[] {
    const members = this.members();
    trySignal(-this.#root, signal);
    for (const entry of members) if (entry.pgid !== this.#root) trySignal(entry.pid, signal);
    return members;
  }

  /**
   * SIGTERM to everything, then SIGKILL to whatever is left after `graceMs` (checked every
   * 25 ms, so a tree that exits promptly costs no waiting). Resolves when nothing is left, or
   * `KILL_SETTLE_MS` after the SIGKILL: a killed process is not gone at once on a busy machine
   * (a pid namespace is torn down, exit runs), and the caller tells the model it stopped.
   * Never rejects.
   */
  async kill(graceMs: number): Promise<void> {
    this.stopTracking();
    this.signal("SIGTERM");
    await this.#whileAlive(graceMs);
    if (!this.#anyAlive()) return;
    this.signal("SIGKILL");
    await this.#whileAlive(KILL_SETTLE_MS);
  }

  async #whileAlive(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.#anyAlive() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(25, Math.max(1, deadline - Date.now()))));
    }
  }

  #noRootLeft(): boolean {
    const alive = (pid: number, start: string | undefined) => {
      const entry = readProc(pid);
      return entry !== undefined && entry.startTime === start;
    };
    if (this.#rootStart !== undefined && alive(this.#root, this.#rootStart)) return false;
    for (const [pid, start] of this.#known) if (alive(pid, start)) return false;
    try {
      process.kill(-this.#root, 0);
      return false;
    } catch {
      return true;
    }
  }

  #anyAlive(): boolean {
    if (this.#haveProc) return this.members().length > 0;
    try {
      process.kill(-this.#root, 0);
      return true;
    } catch {
      return false;
    }
  }

  /** Immediate SIGKILL of whatever is left: for strays after the command itself finished. */
  sweep(): void {
    this.stopTracking();
    this.signal("SIGKILL");
  }
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone, which is what we want. EPERM: not ours to kill (e.g. a setuid
    // program); nothing more we can do, and the caller's result does not depend on it.
  }
}
