import fs from "node:fs";

/**
 * The lock that makes one daemon the owner of a socket path: a file created exclusively
 * holding the owner's pid. Windows opening at the same moment each start a daemon; all but
 * one find the lock held and leave. A lock left by a killed daemon (its pid gone, or reused
 * by a process that is no daemon of ours) is taken over.
 */
export function takeLock(file: string): { release(): void } | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, "wx", 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return {
        release() {
          try {
            if (fs.readFileSync(file, "utf8") === String(process.pid)) fs.unlinkSync(file);
          } catch {
            // Gone already: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (holderAlive(file)) return undefined;
      fs.rmSync(file, { force: true });
    }
  }
  return undefined;
}

function holderAlive(file: string): boolean {
  let pid: number;
  try {
    const text = fs.readFileSync(file, "utf8");
    // Created and not yet written: its daemon is starting, unless that was long ago.
    if (text === "") return Date.now() - fs.statSync(file).mtimeMs < 2_000;
    pid = Number(text);
  } catch {
    return false;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("daemon");
  } catch {
    return false;
  }
}
