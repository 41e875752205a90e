import { accessSync, constants } from "node:fs";
import path from "node:path";
import { createLocalExec, type LocalExecOptions } from "../exec/run-command.js";
import type { SpawnCommand } from "../exec/spawner/spawned-process.js";
import { bwrapArgv } from "./bwrap-argv.js";
import { launchArgv } from "./launch-argv.js";

export type SandboxStatus =
  | {
      available: true;
      /** bubblewrap's version, e.g. `0.8.0`. */
      version: string;
      /** Absolute path of the bwrap that passed the probe; the sandbox runs exactly this one. */
      bwrap: string;
      /** bubblewrap 0.8+: commands cannot create user namespaces of their own. */
      disableUserns: boolean;
      /** Weaker spots of this machine's sandbox, worded for the user. Empty when none. */
      notes: string[];
    }
  | { available: false; reason: string };

export interface ProbeOptions {
  /** The environment bwrap runs with; its PATH locates bwrap. Default: `PATH` of this process. */
  env?: Record<string, string>;
  /** A bwrap binary to use instead of looking one up on PATH. */
  bwrap?: string;
  /** The seccomp program the sandbox will load (`seccompFilter`), so the probe tries it too. */
  seccompFile?: string;
  /** Default 10 s. */
  timeoutMs?: number;
  /**
   * Starts bwrap: the runtime passes its spawn helper's, so probing forks the small helper
   * instead of the daemon (tens of ms of a blocked event loop at a session's start otherwise).
   * Default: node's spawn in this process.
   */
  spawn?: SpawnCommand;
}

export const INSTALL_HINT =
  "install bubblewrap: `sudo apt install bubblewrap` (Debian, Ubuntu), `sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch)";

/**
 * Finds bwrap and starts the sandbox's exact shape once around `/bin/true`. The answer explains
 * itself: what is missing and how to get it, or bwrap's own error. Never rejects. The result
 * does not change while the daemon runs, so the caller keeps it (no module state here).
 */
export async function probeSandbox(options: ProbeOptions = {}): Promise<SandboxStatus> {
  if (process.platform !== "linux") {
    return { available: false, reason: `bubblewrap sandboxing needs Linux (this is ${process.platform})` };
  }
  const env = options.env ?? { PATH: process.env.PATH ?? "" };
  const bwrap = options.bwrap ?? findOnPath("bwrap", env.PATH ?? "");
  if (bwrap === undefined) {
    return { available: false, reason: `bubblewrap (bwrap) is not on PATH; ${INSTALL_HINT}` };
  }
  if (!isExecutable(bwrap)) {
    return { available: false, reason: `bubblewrap is not executable at ${bwrap}; ${INSTALL_HINT}` };
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const run = runner(env, timeoutMs, options.spawn);
  const versionRun = await run([bwrap, "--version"]);
  const version = /(\d+\.\d+(?:\.\d+)?)/.exec(versionRun.stdout)?.[1];
  if (versionRun.error || version === undefined) {
    return {
      available: false,
      reason: `${bwrap} --version failed: ${versionRun.error ?? versionRun.stdout}`,
    };
  }
  const disableUserns = compareVersions(version, "0.8.0") >= 0;
  const flags = bwrapArgv({ roots: [], mode: "read-only", network: false, cwd: "/", disableUserns });
  const seccomp = options.seccompFile !== undefined;
  const trial = await run(launchArgv({ bwrap, flags, seccomp, command: ["/bin/true"] }), {
    fd3File: options.seccompFile,
  });
  if (trial.error) {
    return {
      available: false,
      reason: `bubblewrap ${version} cannot start a sandbox here: ${explain(trial.error)}`,
    };
  }
  const notes: string[] = [];
  if (!disableUserns) {
    notes.push(`bubblewrap ${version} predates 0.8.0: commands may create nested user namespaces`);
  }
  if (options.seccompFile === undefined) {
    notes.push(`no seccomp filter for ${process.arch}: commands may connect to Unix sockets of the host`);
  }
  return { available: true, version, bwrap, disableUserns, notes };
}

function explain(error: string): string {
  const text = error.trim();
  if (
    /namespace|uid map|uid_map|setting up|RTM_NEWADDR|Operation not permitted|Permission denied/i.test(text)
  ) {
    return `${text} (user namespaces may be disabled: check \`sysctl user.max_user_namespaces\` and \`kernel.unprivileged_userns_clone\`; on Ubuntu 24.04 and later AppArmor restricts them, see docs/security.md)`;
  }
  return text;
}

/** Runs an argv to its end: its output (stdout and stderr), and an error unless it exited 0. */
function runner(env: Record<string, string>, timeoutMs: number, spawn: SpawnCommand | undefined) {
  return async (
    argv: string[],
    launch: LocalExecOptions["launch"] = {},
  ): Promise<{ stdout: string; error?: string }> => {
    // The command exec's own machinery (timeouts, killing the group), with the argv as given
    // instead of a shell's.
    const exec = createLocalExec({
      env,
      spawn,
      wrap: () => argv,
      launch,
      trackIntervalMs: Number.POSITIVE_INFINITY,
    });
    const result = await exec.run({ command: "", cwd: "/", timeoutMs, signal: new AbortController().signal });
    if (result.exitCode === 0) return { stdout: result.output };
    const detail = result.output.trim() || `exit code ${result.exitCode ?? result.signal}`;
    return { stdout: result.output, error: result.timedOut ? `timed out after ${timeoutMs} ms` : detail };
  };
}

function findOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(":")) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
