import { closeSync, openSync, readFileSync, writeSync } from "node:fs";

/**
 * Zeroes the environment block the kernel shows in `/proc/<pid>/environ`, then puts every
 * variable back into `process.env` (which lives elsewhere). Without this, a command run outside
 * the sandbox (full-access, an approved escalation) could read the daemon's API keys from
 * `/proc/$PPID/environ`. Linux only; returns false when the block cannot be scrubbed.
 */
export function scrubEnviron(): boolean {
  const saved = { ...process.env };
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // Fields after the command name (which may hold spaces); env_start/env_end are fields 50/51.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = Number(fields[47]);
    const end = Number(fields[48]);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) return false;
    const fd = openSync("/proc/self/mem", "r+");
    try {
      writeSync(fd, Buffer.alloc(end - start), 0, end - start, start);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  } finally {
    // Setting a variable copies it to the heap; the zeroed block is no longer what getenv reads.
    for (const [key, value] of Object.entries(saved)) if (value !== undefined) process.env[key] = value;
  }
  return true;
}
