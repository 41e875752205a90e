export interface LaunchOptions {
  /** Absolute path of the bwrap binary. */
  bwrap: string;
  /** From `bwrapArgv`. */
  flags: string[];
  /** Whether bwrap gets a seccomp program as fd 3 (`SpawnCommandOptions.fd3File`). */
  seccomp: boolean;
  /** What runs inside, e.g. `["/bin/bash", "-c", command]`. */
  command: string[];
}

/**
 * The argv that starts a command in the sandbox: bwrap itself, no shell in front. The seccomp
 * program comes in as fd 3, which the spawner opens (`startChild`); bwrap closes it after
 * reading, so the command never sees it.
 */
export function launchArgv(options: LaunchOptions): string[] {
  const { bwrap, flags, seccomp, command } = options;
  return [bwrap, ...flags, ...(seccomp ? ["--seccomp", "3"] : []), "--", ...command];
}
