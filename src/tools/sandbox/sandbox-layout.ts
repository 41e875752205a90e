import { type Dirent, promises as fs } from "node:fs";
import path from "node:path";

export interface LayoutRequest {
  roots: string[];
  cwd: string;
  home?: string;
  hidden?: string[];
  /** Bound back read-only although under the hidden home (toolchains: `homeToolchains`). */
  visible?: string[];
  /** How deep below each root `.git` entries are looked for (0 = the root only). Default 3. */
  gitDepth?: number;
  /** At most this many directories are listed per root while looking. Default 1000. */
  gitScanLimit?: number;
}

export interface Layout {
  roots: string[];
  cwd: string;
  home?: string;
  hidden: string[];
  /**
   * `.git` directories and files inside the roots, the git directories they point to, and the
   * existing `visible` paths; none inside a `hidden` path.
   */
  readOnly: string[];
}

/**
 * Turns a session's paths into what `bwrapArgv` takes: canonical (symlinks resolved, so a bind
 * lands where the kernel will look) and existing (bwrap refuses a missing source, and a missing
 * root has nothing to protect). Never rejects.
 *
 * Every `.git` found is bound read-only: a writable `.git/config` or hook is code that runs
 * outside the sandbox the next time the user runs git. A `.git` *file* (worktree, submodule)
 * is protected itself, or it could be repointed, and so are the git directory it names and that
 * directory's `commondir`, wherever they live (this also makes them readable when they sit under
 * the hidden home, so a worktree of a repository in the home still works). A command can write
 * such a file itself, so a target is followed only when it has the shape of a git directory
 * (`HEAD`, plus `objects/` for a common directory) and never into a `hidden` path: a `.git` file
 * saying `gitdir: ~/.ssh` exposes nothing. Directories named `node_modules` and hidden
 * directories are not searched.
 */
export async function sandboxLayout(request: LayoutRequest): Promise<Layout> {
  const roots = unique(await existing(request.roots));
  const hidden = unique(await existing(request.hidden ?? []));
  const readOnly: string[] = await existing(request.visible ?? []);
  for (const root of roots) {
    readOnly.push(...(await gitPaths(root, request.gitDepth ?? 3, request.gitScanLimit ?? 1000)));
  }
  const [home] = request.home === undefined ? [] : await existing([request.home]);
  return {
    roots,
    cwd: (await real(request.cwd)) ?? request.cwd,
    ...(home === undefined ? {} : { home }),
    hidden,
    readOnly: unique(readOnly).filter((p) => !hidden.some((h) => within(p, h))),
  };
}

async function gitPaths(root: string, maxDepth: number, limit: number): Promise<string[]> {
  const found: string[] = [];
  let queue = [root];
  let listed = 0;
  for (let depth = 0; depth <= maxDepth && queue.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of queue) {
      if (listed++ >= limit) return found;
      let entries: Dirent[];
      try {
        // Sorted, so the same tree always gives the same bwrap argv.
        entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
      } catch {
        continue;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.name === ".git") found.push(...(await gitEntry(full, entry)));
        else if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") {
          next.push(full);
        }
      }
    }
    queue = next;
  }
  return found;
}

async function gitEntry(full: string, entry: Dirent): Promise<string[]> {
  if (entry.isDirectory()) return [full];
  if (entry.isSymbolicLink()) {
    // A link cannot be bound over; protect what it points to.
    const target = await real(full);
    return target !== undefined && (await isGitDir(target, false)) ? [target] : [];
  }
  if (!entry.isFile()) return [];
  const paths = [full];
  const gitDir = await pointer(full, /^gitdir:\s*(.+)$/m);
  if (gitDir === undefined || !(await isGitDir(gitDir, false))) return paths;
  paths.push(gitDir);
  const common = await pointer(path.join(gitDir, "commondir"), /^(.+)$/m);
  if (common !== undefined && (await isGitDir(common, true))) paths.push(common);
  return paths;
}

/** The existing, canonical path named inside `file` (relative to the file's directory). */
async function pointer(file: string, pattern: RegExp): Promise<string | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    return undefined;
  }
  const named = pattern.exec(text)?.[1]?.trim();
  return named ? real(path.resolve(path.dirname(file), named)) : undefined;
}

async function isGitDir(dir: string, needObjects: boolean): Promise<boolean> {
  const [head, objects] = await Promise.all([
    fs.stat(path.join(dir, "HEAD")).catch(() => undefined),
    fs.stat(path.join(dir, "objects")).catch(() => undefined),
  ]);
  return head?.isFile() === true && (!needObjects || objects?.isDirectory() === true);
}

function within(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

async function existing(paths: string[]): Promise<string[]> {
  const resolved = await Promise.all(paths.map(real));
  return resolved.filter((p): p is string => p !== undefined);
}

async function real(p: string): Promise<string | undefined> {
  try {
    return await fs.realpath(p);
  } catch {
    return undefined;
  }
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
