import { type GitScanCache, gitPaths, real } from "./git-scan.js";

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
  /** The previous scans (`createGitScanCache`), reused while no listed directory changed. */
  gitScanCache?: GitScanCache;
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
  // The fixed paths resolve synchronously: each is a cheap system call, where a round trip
  // through the thread pool per path would cost more than the rest of the layout.
  const roots = unique(existing(request.roots));
  const hidden = unique(existing(request.hidden ?? []));
  const readOnly: string[] = existing(request.visible ?? []);
  const scans = await Promise.all(
    roots.map((root) =>
      gitPaths(root, {
        maxDepth: request.gitDepth ?? 3,
        limit: request.gitScanLimit ?? 1000,
        cache: request.gitScanCache,
      }),
    ),
  );
  for (const found of scans) readOnly.push(...found);
  const [home] = request.home === undefined ? [] : existing([request.home]);
  return {
    roots,
    cwd: real(request.cwd) ?? request.cwd,
    ...(home === undefined ? {} : { home }),
    hidden,
    readOnly: unique(readOnly).filter((p) => !hidden.some((h) => within(p, h))),
  };
}

function within(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}

function existing(paths: string[]): string[] {
  return paths.map(real).filter((p): p is string => p !== undefined);
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
