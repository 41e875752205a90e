import path from "node:path";
import { childrenOf, readProc } from "../exec/proc-table.js";
import type { SpawnCommand, SpawnedProcess } from "../exec/spawner/spawned-process.js";
import { createSpawner, type Spawner } from "../exec/spawner/spawner-client.js";
import { joinCgroup, parentProcs } from "../exec/spawner/start-child.js";
import { type HelperFiles, INSIDE } from "./helper-files.js";
import type { PidsCgroup } from "./pids-cgroup.js";
import { createSpareGroups } from "./spare-groups.js";

export interface ConfinedHelperOptions {
  /** Starts bwrap: `startChild`, so that the helper's frames reach the daemon directly. */
  spawn: SpawnCommand;
  bwrap: string;
  /** `bwrapArgv` of the commands, without `--chdir` (each command brings its cwd). */
  flags: string[];
  seccompFile?: string;
  /** The commands' filtered environment: the helper's own, and bwrap's. */
  env: Record<string, string>;
  files: HelperFiles;
  /** Makes a command's pids cgroup (pids-cgroup.ts): also the next one, ahead of time. */
  makeCgroup: () => Promise<PidsCgroup | undefined>;
  onLog?: (text: string) => void;
}

export interface ConfinedHelper {
  /** Forks a command inside this helper's sandbox; pass `cgroupProcs`, which it is born in. */
  spawn: SpawnCommand;
  /**
   * The next command's pids cgroup with the helper's spare shell already in it (spare-groups.ts),
   * or undefined: then make one.
   */
  claimCgroup(): Promise<PidsCgroup | undefined>;
  /**
   * Whether the helper is up. When it is not running, starts it in the background: node's own
   * start inside the sandbox takes longer than a sandbox of its own for a command, so commands
   * that come meanwhile get one (sandboxed-exec.ts).
   */
  ready(): boolean;
  /** The helper's pid on the host while it runs: never a member of a command's tree. */
  pid(): number | undefined;
  /** Stops it now, with whatever still runs in it. */
  dispose(): void;
  /** Stops it once the commands running in it are done. */
  retire(): void;
}

/** How long the helper's pid is looked for after bwrap started (bwrap sets up its mounts first). */
const FIND_MS = 5_000;

/**
 * The spawn helper started once inside bubblewrap, with the commands' exact flags and seccomp
 * program, as the sandbox's pid 1 (`--as-pid-1`), forking each command there: one sandbox set
 * up per (mode, roots, hidden paths, `.git` paths) instead of one per command. What each
 * command still gets of its own: its process group, environment, cwd, pids cgroup (the daemon
 * moved the helper's waiting spare shell into it ahead of time, and the spare becomes the
 * command: spare-groups.ts; else it moves the helper in for the fork, since the cgroup files
 * are read-only inside) and the
 * end of its whole tree (`CgroupTree`). Started again by the next command after it died or
 * retired (confine-helper.ts); its stdin and stdout are the frame channel to the daemon.
 */
export function startConfinedHelper(options: ConfinedHelperOptions): ConfinedHelper {
  let launcher: SpawnedProcess | undefined;
  let helperPid: number | undefined;
  let launcherGone = false;
  const groups = createSpareGroups(options.makeCgroup);

  let up = false;

  const start = (): SpawnedProcess => {
    helperPid = undefined;
    up = false;
    groups.clear();
    const { bwrap, flags, seccompFile, env, files } = options;
    const argv = [
      ...flags,
      ...["--ro-bind", files.loader, INSIDE.loader],
      ...["--ro-bind", files.node, INSIDE.node],
      ...["--ro-bind", files.scriptDir, INSIDE.scriptDir],
      "--chdir",
      "/",
      "--as-pid-1",
      ...(seccompFile === undefined ? [] : ["--seccomp", "3"]),
      "--",
      INSIDE.loader,
      INSIDE.node,
      "--max-semi-space-size=1",
      path.join(INSIDE.scriptDir, files.scriptName),
      "--confined",
      `--spare-loader=${INSIDE.loader}`,
    ];
    const child = options.spawn(bwrap, argv, {
      cwd: "/",
      env,
      stdin: "pipe",
      ...(seccompFile === undefined ? {} : { fd3File: seccompFile }),
    });
    launcher = child;
    launcherGone = false;
    const gone = () => {
      if (launcher !== child) return;
      launcherGone = true;
      up = false;
    };
    child.once("close", gone);
    child.once("error", gone);
    return child;
  };

  /** The helper is bwrap's one child on the host; found once per start. */
  const findHelper = async (): Promise<number | undefined> => {
    const deadline = Date.now() + FIND_MS;
    for (;;) {
      const bwrapPid = launcher?.pid;
      if (helperPid !== undefined) return helperPid;
      if (bwrapPid !== undefined) {
        const found = childrenOf(bwrapPid).find((pid) => readProc(pid)?.zombie === false);
        if (found !== undefined) {
          helperPid = found;
          return helperPid;
        }
      }
      if (launcherGone || Date.now() > deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };

  const spawner: Spawner = createSpawner({
    start,
    killOnLoss: false,
    onReady: () => {
      up = true;
    },
    ...(options.onLog ? { onLog: options.onLog } : {}),
    placement: {
      spareReady(inner) {
        // While the session is idle: the helper forks its spare after a quiet moment.
        void groups.prepare(findHelper(), inner);
      },
      async enter(procs) {
        const pid = await findHelper();
        if (pid === undefined) return undefined;
        const spare = groups.spareIn(procs, pid);
        if (spare !== undefined) return { spare, moved: false };
        return joinCgroup(procs, pid) ? { moved: true } : undefined;
      },
      leave(procs) {
        // Back to the group the command's group was made in: the helper's own.
        if (helperPid !== undefined) joinCgroup(parentProcs(procs), helperPid);
      },
    },
  });
  return {
    spawn: spawner.spawn,
    claimCgroup: () => groups.claim(),
    ready: () => {
      spawner.warm();
      return up;
    },
    pid: () => helperPid,
    dispose: () => {
      groups.clear();
      spawner.dispose();
    },
    retire: () => {
      groups.clear();
      spawner.retire();
    },
  };
}
