import { readdirSync, readFileSync } from "node:fs";

/** One process as `/proc/<pid>/stat` describes it. */
export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks since boot: with the pid, identifies a process across pid reuse. */
  startTime: string;
  zombie: boolean;
}

/** Parses `/proc/<pid>/stat`. The command name is in parentheses and may contain anything. */
export function parseProcStat(text: string): ProcEntry | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number.parseInt(text, 10);
  // Fields after the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
  // cmajflt utime stime cutime cstime priority nice num_threads itrealvalue starttime …
  const fields = text.slice(close + 2).split(" ");
  const startTime = fields[19];
  if (!Number.isInteger(pid) || startTime === undefined) return undefined;
  return {
    pid,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    startTime,
    zombie: fields[0] === "Z" || fields[0] === "X",
  };
}

/** One process, or undefined when it is gone (or /proc is not there, as on macOS). */
export function readProc(pid: number): ProcEntry | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** Every process visible in /proc; empty where there is no /proc. */
export function readProcTable(): ProcEntry[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const entries: ProcEntry[] = [];
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const entry = readProc(Number(name));
    if (entry) entries.push(entry);
  }
  return entries;
}

/** `roots` and all their descendants present in `table`, by parent links. */
export function descendantsOf(roots: Iterable<number>, table: ProcEntry[]): Set<number> {
  const children = new Map<number, number[]>();
  for (const entry of table) {
    const siblings = children.get(entry.ppid);
    if (siblings) siblings.push(entry.pid);
    else children.set(entry.ppid, [entry.pid]);
  }
  const found = new Set<number>();
  const queue = [...roots];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    if (found.has(pid)) continue;
    found.add(pid);
    for (const child of children.get(pid) ?? []) queue.push(child);
  }
  return found;
}

/** Children of `pid`: the kernel's own list where it keeps one, else the parent links in /proc. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return readProcTable()
      .filter((entry) => entry.ppid === pid)
      .map((entry) => entry.pid);
  }
}
