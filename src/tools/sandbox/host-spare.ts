import { readFileSync } from "node:fs";
import { readProc, readProcTable } from "../exec/proc-table.js";
import { joinCgroup } from "../exec/spawner/start-child.js";

/** The confined helper's spare shell (spare-shell.ts) as the daemon sees it on the host. */
export interface HostSpare {
  /** Its pid inside the sandbox, which the helper reported. */
  inner: number;
  host: number;
  /** With `host`, identifies the process across pid reuse. */
  startTime: string;
}

/**
 * The helper's child whose pid inside the sandbox is `inner` (the innermost `NSpid`), or
 * undefined when there is none. The helper's other children (running commands, orphans
 * re-parented to it) have other inner pids.
 */
export function findHostSpare(helper: number, inner: number): HostSpare | undefined {
  for (const pid of childrenOf(helper)) {
    const pids = nsPids(pid);
    if (pids === undefined || pids.length < 2 || pids[pids.length - 1] !== inner) continue;
    const entry = readProc(pid);
    if (entry && entry.ppid === helper && !entry.zombie)
      return { inner, host: pid, startTime: entry.startTime };
  }
  return undefined;
}

/**
 * Moves the spare into the cgroup `procs` (the next command's) when it is still the process
 * that was found: the helper's child, alive, started at the same tick. A pid is only reused
 * once its process was reaped, and the helper reaps its spare only after it died; checked
 * before and after the write, a wrong process would need the pid to be freed and given out
 * again between two reads a few microseconds apart. Should the check after the write fail all
 * the same, the process goes back to `home` (the helper's own group, where the spare was born).
 */
export function moveHostSpare(
  spare: HostSpare,
  options: { helper: number; procs: string; home: string },
): boolean {
  const same = () => {
    const entry = readProc(spare.host);
    return (
      entry !== undefined &&
      !entry.zombie &&
      entry.ppid === options.helper &&
      entry.startTime === spare.startTime
    );
  };
  if (!same() || !joinCgroup(options.procs, spare.host)) return false;
  if (same()) return true;
  joinCgroup(options.home, spare.host);
  return false;
}

/** Children of `pid`: the kernel's own list where it has one, else the parent links of /proc. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return readProcTable()
      .filter((entry) => entry.ppid === pid)
      .map((entry) => entry.pid);
  }
}

/** `NSpid` of `/proc/<pid>/status`: its pid in this namespace, then in each nested one. */
function nsPids(pid: number): number[] | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((text) => text.startsWith("NSpid:"));
    return line?.slice("NSpid:".length).trim().split(/\s+/).map(Number);
  } catch {
    return undefined;
  }
}
