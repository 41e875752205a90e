import { existsSync } from "node:fs";
import path from "node:path";

/** The nearest ancestor of `cwd` (inclusive) holding `.git`; `cwd` itself when there is none. */
export function findProjectRoot(cwd: string): string {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(cwd);
  }
}
