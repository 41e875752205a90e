import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";
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
  const versionRun = await run(bwrap, ["--version"], env, timeoutMs);
  const version = /(\d+\.\d+(?:\.\d+)?)/.exec(versionRun.stdout)?.[1];
  if (versionRun.error || version === undefined) {
    return {
      available: false,
      reason: `${bwrap} --version failed: ${versionRun.error ?? versionRun.stdout}`,
    };
  }
  const disableUserns = compareVersions(version, "0.8.0") >= 0;
  const flags = bwrapArgv({ roots: [], mode: "read-only", network: false, cwd: "/", disableUserns });
  const [file, ...args] = launchArgv({
    bwrap,
    flags,
    command: ["/bin/true"],
    seccompFile: options.seccompFile,
  });
  const trial = await run(file!, args, env, timeoutMs);
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

function run(
  file: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ stdout: string; error?: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: timeoutMs, killSignal: "SIGKILL" }, (error, stdout, stderr) => {
      if (!error) return resolve({ stdout });
      const detail = stderr.trim() || error.message;
      resolve({ stdout, error: error.killed ? `timed out after ${timeoutMs} ms` : detail });
    });
  });
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
