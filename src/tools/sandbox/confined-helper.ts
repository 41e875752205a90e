import path from "node:path";
import { readProcTable } from "../exec/proc-table.js";
import type { SpawnCommand, SpawnedProcess } from "../exec/spawner/spawned-process.js";
import { createSpawner, type Spawner } from "../exec/spawner/spawner-client.js";
import { joinCgroup } from "../exec/spawner/start-child.js";
import { type HelperFiles, INSIDE } from "./helper-files.js";
import { findHostSpare, type HostSpare, moveHostSpare } from "./host-spare.js";

export interface ConfinedHelperOptions {
  /** The daemon's spawn helper, which starts bwrap. */
  spawn: SpawnCommand;
  bwrap: string;
  /** `bwrapArgv` of the commands, without `--chdir` (each command brings its cwd). */
  flags: string[];
  seccompFile?: string;
  /** The commands' filtered environment: the helper's own, and bwrap's. */
  env: Record<string, string>;
  files: HelperFiles;
  onLog?: (text: string) => void;
}

export interface ConfinedHelper {
  /** Forks a command inside this helper's sandbox; pass `cgroupProcs`, which it is born in. */
  spawn: SpawnCommand;
  /** The helper's pid on the host while it runs: never a member of a command's tree. */
  pid(): number | undefined;
  /** Stops it now, with whatever still runs in it. */
  dispose(): void;
  /** Stops it once the commands running in it are done. */
  retire(): void;
}

/** The group a command's group was made in (pids-cgroup.ts): the helper's own, and its spare's. */
const home = (procs: string) => path.join(path.dirname(path.dirname(procs)), "cgroup.procs");

/** How long the helper's pid is looked for after bwrap started (bwrap sets up its mounts first). */
const FIND_MS = 5_000;

/**
 * The spawn helper started once inside bubblewrap, with the commands' exact flags and seccomp
 * program, as the sandbox's pid 1 (`--as-pid-1`), forking each command there: one sandbox set
 * up per (mode, roots, hidden paths, `.git` paths) instead of one per command. What each
 * command still gets of its own: its process group, environment, cwd, pids cgroup (the daemon
 * moves the helper into it for the fork, since the cgroup files are read-only inside, or the
 * helper's waiting spare shell, which then becomes the command: host-spare.ts) and the
 * end of its whole tree (`CgroupTree`). Started again by the next command after it died or
 * retired (confine-helper.ts); its stdin and stdout are frames relayed by the daemon's helper.
 */
export function startConfinedHelper(options: ConfinedHelperOptions): ConfinedHelper {
  let launcher: SpawnedProcess | undefined;
  let helperPid: number | undefined;
  let launcherGone = false;
  /** The helper's waiting spare shell: its pid inside, and on the host once found. */
  let spareInner: number | undefined;
  let spare: HostSpare | undefined;

  const start = (): SpawnedProcess => {
    helperPid = undefined;
    spareInner = undefined;
    spare = undefined;
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
      if (launcher === child) launcherGone = true;
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
        const found = readProcTable().find((entry) => entry.ppid === bwrapPid && !entry.zombie);
        if (found) {
          helperPid = found.pid;
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
    ...(options.onLog ? { onLog: options.onLog } : {}),
    placement: {
      spareReady(inner) {
        // Found while the session is idle (the helper forks its spare after a quiet moment).
        spareInner = inner;
        spare = helperPid === undefined ? undefined : findHostSpare(helperPid, inner);
      },
      async enter(procs) {
        const pid = await findHelper();
        // The helper too, even when the spare takes the command: should the spare be gone by
        // the time the request arrives, the helper forks the command, and it must be born here.
        if (pid === undefined || !joinCgroup(procs, pid)) return undefined;
        const found = spare ?? (spareInner === undefined ? undefined : findHostSpare(pid, spareInner));
        spare = undefined;
        spareInner = undefined; // one command per spare; the helper announces the next one
        const moved = found !== undefined && moveHostSpare(found, { helper: pid, procs, home: home(procs) });
        return moved ? { spare: found.inner } : {};
      },
      leave(procs) {
        if (helperPid !== undefined) joinCgroup(home(procs), helperPid);
      },
    },
  });
  return {
    spawn: spawner.spawn,
    pid: () => helperPid,
    dispose: () => spawner.dispose(),
    retire: () => spawner.retire(),
  };
}
