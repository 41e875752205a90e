export interface LaunchOptions {
  /** Absolute path of the bwrap binary. */
  bwrap: string;
  /** From `bwrapArgv`. */
  flags: string[];
  /** File holding the seccomp program; omitted when the architecture has none. */
  seccompFile?: string;
  /** What runs inside, e.g. `["/bin/bash", "-c", command]`. */
  command: string[];
  /** A pids cgroup's `cgroup.procs`: the launcher moves itself in before starting bwrap. */
  cgroupProcs?: string;
}

/**
 * The argv that starts a command in the sandbox. bwrap reads its seccomp program from a file
 * descriptor, and the exec port gives a child only stdin, stdout and stderr, so a `/bin/sh`
 * opens the file as fd 3 and then replaces itself with bwrap (`exec`): same pid, same process
 * group, no shell left behind. bwrap closes fd 3 after reading it, so the command never sees it.
 */
export function launchArgv(options: LaunchOptions): string[] {
  const { bwrap, flags, seccompFile, command, cgroupProcs } = options;
  const seccomp = seccompFile === undefined ? [] : ["--seccomp", "3"];
  const openFilter = seccompFile === undefined ? "" : 'exec 3<"$0" && ';
  if (cgroupProcs === undefined) {
    if (seccompFile === undefined) return [bwrap, ...flags, "--", ...command];
    return [
      "/bin/sh",
      "-c",
      `${openFilter}exec "$@"`,
      seccompFile,
      bwrap,
      ...flags,
      ...seccomp,
      "--",
      ...command,
    ];
  }
  // The launcher joins the cgroup before bwrap exists, so nothing the command starts escapes it.
  return [
    "/bin/sh",
    "-c",
    `echo $$ > "$1" 2>/dev/null; shift; ${openFilter}exec "$@"`,
    seccompFile ?? "sh",
    cgroupProcs,
    bwrap,
    ...flags,
    ...seccomp,
    "--",
    ...command,
  ];
}
