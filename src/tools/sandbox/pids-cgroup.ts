import { existsSync, readdirSync, readFileSync, rmdirSync } from "node:fs";
import { mkdir, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** A cgroup that caps how many processes one command may have (fork bombs stop at the cap). */
export interface PidsCgroup {
  /** Write a pid here to move that process (and its future children) into the group. */
  procs: string;
  /** Removes the group once it is empty (retries while killed processes finish dying). */
  release(): void;
}

const V1_ROOT = "/sys/fs/cgroup/pids";
const V2_ROOT = "/sys/fs/cgroup";

/**
 * Creates a pids cgroup under the daemon's own one (cgroup v1 `pids` hierarchy, or v2 when the
 * pids controller is delegated there). Undefined when this machine does not let us: no pids
 * controller, or no permission (an unprivileged daemon without a delegated subtree). Off the
 * event loop, as `removeWhenEmpty`: making a group waits for the same cgroup lock.
 */
export async function createPidsCgroup(options: {
  name: string;
  max: number;
}): Promise<PidsCgroup | undefined> {
  for (const base of candidateParents()) {
    const dir = path.join(base, options.name);
    try {
      await mkdir(dir);
    } catch {
      continue;
    }
    try {
      await writeFile(path.join(dir, "pids.max"), String(options.max));
      return { procs: path.join(dir, "cgroup.procs"), release: () => removeWhenEmpty(dir, 40) };
    } catch {
      removeWhenEmpty(dir, 0);
    }
  }
  return undefined;
}

function candidateParents(): string[] {
  let lines: string[];
  try {
    lines = readFileSync("/proc/self/cgroup", "utf8").split("\n");
  } catch {
    return [];
  }
  const parents: string[] = [];
  const v1 = lines.find((l) => /^\d+:pids:/.test(l))?.split(":")[2];
  if (v1 !== undefined && existsSync(V1_ROOT)) parents.push(path.join(V1_ROOT, v1));
  const v2 = lines.find((l) => l.startsWith("0::"))?.slice(3);
  if (v2 !== undefined && existsSync(path.join(V2_ROOT, "cgroup.controllers")))
    parents.push(path.join(V2_ROOT, v2));
  return parents;
}

/**
 * Removes the empty groups of processes that are gone: a daemon killed, or an `exec` that ended
 * while a group was still emptying, leaves its groups behind. A group still holding a process is
 * never removed (rmdir refuses it), nor a live process's. For once at start-up.
 */
export function sweepStaleCgroups(): void {
  for (const base of candidateParents()) {
    let names: string[];
    try {
      names = readdirSync(base);
    } catch {
      continue;
    }
    for (const name of names) {
      const owner = /^openinterpreter-(\d+)-\d+$/.exec(name)?.[1];
      if (owner === undefined || alive(Number(owner))) continue;
      try {
        rmdirSync(path.join(base, name));
      } catch {
        // Still holds a process, or already gone.
      }
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * Off the event loop: removing a group waits for the cgroup lock, which a move into another
 * group (a spare placed ahead of time, spare-groups.ts) can hold for an RCU grace period.
 */
function removeWhenEmpty(dir: string, attempts: number): void {
  rmdir(dir).catch((error: { code?: string }) => {
    if (error.code === "EBUSY" && attempts > 0)
      setTimeout(() => removeWhenEmpty(dir, attempts - 1), 50).unref();
  });
}
