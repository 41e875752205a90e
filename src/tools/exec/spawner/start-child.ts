import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { closeSync, openSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SpawnCommandOptions } from "./spawned-process.js";

/**
 * node's `spawn` as a `SpawnCommand` promises it (stdin /dev/null, stdout and stderr piped, its
 * own process group), plus the two things the sandbox's launcher needs: `fd3File` opened as the
 * child's fd 3, and the child born inside the cgroup `cgroupProcs`, done here rather than by a
 * `/bin/sh` in front of bwrap, which would cost one more exec per sandboxed command. Used by the
 * spawn helper and by the daemon when it spawns in-process. Throws as `spawn` does for
 * arguments it refuses, and when `fd3File` cannot be opened.
 */
export function startChild(file: string, args: string[], options: SpawnCommandOptions): ChildProcess {
  const { cwd, env, fd3File, cgroupProcs, stdin } = options;
  // Opened per child: each gets the file from its start (bwrap reads its fd to the end).
  const fd3 = fd3File === undefined ? undefined : openSync(fd3File, "r");
  // `spawn` forks before it returns, so this process sits in the group for that moment only and
  // the child starts inside it: nothing the command starts is outside the cap. The group was
  // made right below our own (pids-cgroup.ts), which is where we go back to. A group we cannot
  // join leaves the command uncapped, as the machine leaves every other process.
  const joined = cgroupProcs !== undefined && joinCgroup(cgroupProcs, process.pid);
  try {
    const stdio: StdioOptions = [stdin ?? "ignore", "pipe", "pipe", ...(fd3 === undefined ? [] : [fd3])];
    return spawn(file, args, { cwd, env, stdio, detached: true });
  } finally {
    if (joined) joinCgroup(parentProcs(cgroupProcs), process.pid);
    if (fd3 !== undefined) closeSync(fd3);
  }
}

/**
 * The `cgroup.procs` of the group a command's group was made in (pids-cgroup.ts makes it right
 * below the spawner's own): where a process that joined a command's group for its fork goes back.
 */
export function parentProcs(procs: string): string {
  return path.join(path.dirname(path.dirname(procs)), "cgroup.procs");
}

/**
 * Moves `pid` into the cgroup whose `cgroup.procs` is `procs`. False when that is not allowed:
 * a group we cannot join leaves the command uncapped, as the machine leaves every other process.
 */
export function joinCgroup(procs: string, pid: number): boolean {
  try {
    writeFileSync(procs, String(pid));
    return true;
  } catch {
    return false;
  }
}
