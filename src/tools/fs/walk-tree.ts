import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { type IgnoreRule, inheritedIgnoreRules, isIgnored, readIgnoreRules } from "./gitignore.js";

export interface WalkEntry {
  abs: string;
  /** Relative to the walk root, `/` separators. */
  rel: string;
  name: string;
  /** From the directory entry itself: symbolic links are reported, never followed. */
  type: "file" | "directory" | "symlink" | "other";
  /** 1 for a direct child of the root. */
  depth: number;
}

export interface WalkOptions {
  root: string;
  signal?: AbortSignal;
  /** 1 = direct children only. Default: unlimited. */
  maxDepth?: number;
  /** Apply `.gitignore` (inside a git repository), `.ignore` and `.rgignore` files, nested ones included. */
  respectIgnoreFiles: boolean;
  /** Names neither yielded nor entered, at any depth. */
  skipNames: ReadonlySet<string>;
  /**
   * Decides whether an entry is yielded (and a directory entered); `ignored` says whether the
   * ignore files exclude it. Default: not ignored. ripgrep's `-g` whitelisting uses this.
   */
  include?: (entry: WalkEntry, ignored: boolean) => boolean;
  /** Level by level instead of depth first. Either way each directory's entries come sorted by name. */
  breadthFirst?: boolean;
}

interface PendingDir {
  abs: string;
  rel: string;
  depth: number;
  rules: readonly IgnoreRule[];
  inGitRepo: boolean;
}

/**
 * Walks a directory tree in a stable order (names compared by code unit, like ripgrep's
 * `--sort path`): depth first and pre-order by default. Checks the signal before each directory
 * and throws its reason. Directories that cannot be read below the root (permissions, removed
 * meanwhile) are skipped, as ripgrep does; the root's own read error is thrown.
 */
export async function* walkTree(options: WalkOptions): AsyncGenerator<WalkEntry> {
  const root = path.resolve(options.root);
  const include = options.include ?? ((_entry, ignored) => !ignored);
  const inherited = options.respectIgnoreFiles
    ? await inheritedIgnoreRules(root)
    : { inGitRepo: false, rules: [] };
  const queue: PendingDir[] = [{ abs: root, rel: "", depth: 0, ...inherited }];

  async function* visit(dir: PendingDir): AsyncGenerator<WalkEntry> {
    options.signal?.throwIfAborted();
    let dirents: Dirent[];
    try {
      dirents = await readdir(dir.abs, { withFileTypes: true });
    } catch (error) {
      if (dir.depth > 0) return;
      throw error;
    }
    const names = new Set(dirents.map((dirent) => dirent.name));
    const inGitRepo = dir.inGitRepo || names.has(".git");
    const rules = options.respectIgnoreFiles
      ? [...dir.rules, ...(await readIgnoreRules(dir.abs, inGitRepo, (name) => names.has(name)))]
      : dir.rules;
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const dirent of dirents) {
      if (options.skipNames.has(dirent.name)) continue;
      const entry: WalkEntry = {
        abs: path.join(dir.abs, dirent.name),
        rel: dir.rel === "" ? dirent.name : `${dir.rel}/${dirent.name}`,
        name: dirent.name,
        type: dirent.isDirectory()
          ? "directory"
          : dirent.isFile()
            ? "file"
            : dirent.isSymbolicLink()
              ? "symlink"
              : "other",
        depth: dir.depth + 1,
      };
      const isDir = entry.type === "directory";
      const ignored = options.respectIgnoreFiles && isIgnored(rules, entry.abs, isDir);
      if (!include(entry, ignored)) continue;
      yield entry;
      if (isDir && (options.maxDepth === undefined || entry.depth < options.maxDepth)) {
        const child: PendingDir = { abs: entry.abs, rel: entry.rel, depth: entry.depth, rules, inGitRepo };
        if (options.breadthFirst) queue.push(child);
        else yield* visit(child);
      }
    }
  }

  for (let next = 0; next < queue.length; next++) yield* visit(queue[next]!);
}
