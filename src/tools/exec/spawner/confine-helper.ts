import { readdirSync, readFileSync } from "node:fs";

/**
 * As the sandbox's pid 1, this process gets from inside its namespace only the signals it has
 * a handler for (SIGKILL and SIGSTOP never). node has one for SIGUSR1, which opens its
 * inspector on a TCP port a command could reach and run code from: a listener that does
 * nothing replaces it. The others are listed so that no signal ever does more than that.
 */
const IGNORED: NodeJS.Signals[] = [
  "SIGTERM",
  "SIGINT",
  "SIGHUP",
  "SIGQUIT",
  "SIGUSR1",
  "SIGUSR2",
  "SIGALRM",
  "SIGVTALRM",
  "SIGPROF",
  "SIGTSTP",
  "SIGTTIN",
  "SIGTTOU",
  "SIGWINCH",
  "SIGURG",
  "SIGIO",
  "SIGXCPU",
  "SIGXFSZ",
  "SIGPWR",
  "SIGSYS",
  "SIGTRAP",
  "SIGABRT",
];

/**
 * Orphans of the commands are re-parented to pid 1, this helper, which cannot reap them (node
 * waits only for its own children): killed, they stay zombies. Past this many, the helper asks
 * to be replaced once it is idle, so they never pile up.
 */
export const ZOMBIE_LIMIT = 64;

export interface HelperGuard {
  /** Call when no command runs: says whether the helper should be replaced. */
  idle(): boolean;
}

/**
 * What the spawn helper does when it runs inside the sandbox as its pid 1 (`--confined`): it
 * ignores every signal a command could send it. Reading its memory, its file descriptors (the
 * frame channel, other commands' pipes) or its environment is refused by the kernel because
 * the helper is not dumpable (it is started through an unreadable copy of the ELF loader).
 */
export function confineHelper(): HelperGuard {
  for (const signal of IGNORED) process.on(signal, () => {});
  return { idle: () => zombies() > ZOMBIE_LIMIT };
}

/** Zombie children of this process, from the sandbox's own small /proc. */
function zombies(): number {
  let count = 0;
  let names: string[] = [];
  try {
    names = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z" && Number(ppid) === process.pid) count++;
    } catch {
      // exited while we looked
    }
  }
  return count;
}
