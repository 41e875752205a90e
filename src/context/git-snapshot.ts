import { execFile } from "node:child_process";

/** The repository's state when a session starts, for harnesses whose original shows it once. */
export interface GitSnapshot {
  branch: string;
  /** The branch pull requests usually target: origin's HEAD, else `main`. */
  mainBranch: string;
  /** `git status --short`, cut at `STATUS_MAX_CHARS`; "" when clean. */
  status: string;
  /** `git log --oneline -n 5`. */
  recentCommits: string;
}

/** Longer status listings are cut here, so a dirty monorepo cannot fill the prompt. */
export const STATUS_MAX_CHARS = 2_000;

/**
 * Reads the snapshot with four read-only git commands; undefined when `dir` is not in a work
 * tree or git is missing. `GIT_OPTIONAL_LOCKS=0` keeps `git status` from taking the index lock
 * a user's own git command may need at the same moment. Never rejects.
 */
export async function gitSnapshot(dir: string): Promise<GitSnapshot | undefined> {
  const git = (...args: string[]) => run(dir, args);
  const branch = await git("branch", "--show-current");
  if (branch === undefined) return undefined;
  const [origin, status, log] = await Promise.all([
    git("rev-parse", "--abbrev-ref", "origin/HEAD"),
    git("--no-optional-locks", "status", "--short"),
    git("log", "--oneline", "-n", "5"),
  ]);
  return {
    branch: branch || "HEAD",
    mainBranch: origin?.replace(/^origin\//, "") || "main",
    status: cut(status ?? ""),
    recentCommits: log ?? "",
  };
}

function cut(status: string): string {
  if (status.length <= STATUS_MAX_CHARS) return status;
  return `${status.slice(0, STATUS_MAX_CHARS)}\n… (cut: run "git status" for the rest)`;
}

function run(cwd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      "git",
      args,
      { cwd, timeout: 5_000, maxBuffer: 1024 * 1024, env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" } },
      (error, stdout) => resolve(error ? undefined : stdout.trimEnd()),
    );
  });
}
