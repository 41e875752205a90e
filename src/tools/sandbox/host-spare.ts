import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { childrenOf, readProc } from "../exec/proc-table.js";

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

/** Whether the spare is still the process that was found: the helper's child, alive, same start. */
export function isHostSpare(spare: HostSpare, helper: number): boolean {
  const entry = readProc(spare.host);
  return entry !== undefined && !entry.zombie && entry.ppid === helper && entry.startTime === spare.startTime;
}

/**
 * Moves the spare into the cgroup `procs` (the next command's) when it is still the process
 * that was found. Asynchronous because the first move into a cgroup after a quiet moment waits
 * for an RCU grace period (docs/performance.md): done while the session is idle, off the
 * event loop. A pid is only reused once its process was reaped, and the helper reaps its spare
 * only after it died; checked before and after the write, a wrong process would need the pid
 * to be freed and handed out again meanwhile, through all of pid_max. Should the check after
 * the write fail all the same, the process goes back to `home` (the helper's own group, where
 * the spare was born).
 */
export async function placeHostSpare(
  spare: HostSpare,
  options: { helper: number; procs: string; home: string },
): Promise<boolean> {
  if (!isHostSpare(spare, options.helper)) return false;
  try {
    await writeFile(options.procs, String(spare.host));
  } catch {
    return false;
  }
  if (isHostSpare(spare, options.helper)) return true;
  await writeFile(options.home, String(spare.host)).catch(() => {});
  return false;
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
