import { statSync } from "node:fs";
import path from "node:path";

/**
 * Whether `dir` holds a repository as git decides it: a `.git` folder with a `HEAD`, or a
 * `.git` file (a worktree's or submodule's `gitdir:` pointer). An empty `.git` folder, which
 * sandboxing tools leave in `/tmp`, is not one.
 */
export function holdsRepository(dir: string): boolean {
  const marker = path.join(dir, ".git");
  const info = statSync(marker, { throwIfNoEntry: false });
  if (!info) return false;
  return info.isFile() || statSync(path.join(marker, "HEAD"), { throwIfNoEntry: false }) !== undefined;
}

/**
 * The nearest ancestor of `cwd` (inclusive) that holds a repository, without entering a
 * ceiling folder; `cwd` itself when there is none.
 */
export function findProjectRoot(cwd: string, options: { ceilings?: readonly string[] } = {}): string {
  const start = path.resolve(cwd);
  const ceilings = new Set(options.ceilings ?? []);
  for (let dir = start; ; ) {
    if (holdsRepository(dir)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir || ceilings.has(parent)) return start;
    dir = parent;
  }
}
