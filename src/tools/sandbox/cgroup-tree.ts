import { readFileSync } from "node:fs";
import type { CommandTree } from "../exec/process-tree.js";

/** Passes of `sweep` at most: each kills every member it finds, and a killed one forks no more. */
const SWEEP_PASSES = 100;

/**
 * A command's whole tree as the members of its own pids cgroup: a process cannot leave the
 * group (the cgroup files are read-only in the sandbox), so `setsid`, double forks and
 * orphans are all found, and nothing outside the command is. Pids are read from
 * `cgroup.procs`, which lists them as this process sees them.
 */
export class CgroupTree implements CommandTree {
  readonly #procs: string;
  /** A process that is in the group only for a moment and never a member (the confined helper). */
  readonly #helper: () => number | undefined;

  constructor(procs: string, helper: () => number | undefined) {
    this.#procs = procs;
    this.#helper = helper;
  }

  startTracking(): void {}
  stopTracking(): void {}

  /** The command is done: whatever it left running dies now, as in a sandbox of its own. */
  exited(): void {
    this.sweep();
  }

  async kill(graceMs: number): Promise<void> {
    for (const pid of this.#members()) trySignal(pid, "SIGTERM");
    const deadline = Date.now() + graceMs;
    while (this.#members().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(25, Math.max(1, deadline - Date.now()))));
    }
    this.sweep();
  }

  /**
   * SIGKILL until a pass finds only processes already killed (dying ones stay listed until
   * they exit): a child forked while the list was read is found by the next pass.
   */
  sweep(): void {
    const killed = new Set<number>();
    for (let pass = 0; pass < SWEEP_PASSES; pass++) {
      const fresh = this.#members().filter((pid) => !killed.has(pid));
      if (fresh.length === 0) return;
      for (const pid of fresh) {
        killed.add(pid);
        trySignal(pid, "SIGKILL");
      }
    }
  }

  /** How many processes are still in the group. */
  remaining(): number {
    return this.#members().length;
  }

  #members(): number[] {
    let text: string;
    try {
      text = readFileSync(this.#procs, "utf8");
    } catch {
      return []; // the group is gone: so is everything in it
    }
    const helper = this.#helper();
    return text
      .split("\n")
      .filter(Boolean)
      .map(Number)
      .filter((pid) => pid > 1 && pid !== helper && pid !== process.pid);
  }
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: gone already.
  }
}

/**
 * Kills what a finished command left in its own group and waits, a bounded time, until it is
 * gone. A sandbox killed while bubblewrap was still setting it up (before `--die-with-parent`
 * holds) leaves its inner half running, outside the tree that was followed; the group still
 * holds it.
 */
export async function endLeftovers(procs: string, waitMs = 2_000): Promise<void> {
  const tree = new CgroupTree(procs, () => undefined);
  const deadline = Date.now() + waitMs;
  tree.sweep();
  while (tree.remaining() > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    tree.sweep();
  }
}
