import { lstat, stat } from "node:fs/promises";
import path from "node:path";
import { compileGlob } from "./glob-pattern.js";
import {
  type DirectoryEntry,
  type DirectoryListing,
  FsToolError,
  type ListDirectoryOptions,
} from "./types.js";
import { walkTree } from "./walk-tree.js";

const ALWAYS_SKIPPED = new Set([".git"]);

/**
 * Lists a directory down to `depth` levels (default 1). Entries are collected level by level,
 * so when `limit` (default 1000) cuts the listing the shallow entries survive; they are
 * returned in tree order: each directory's children right after it, directories before files,
 * then by name. `ignore` globs match a name (or the relative path when they contain `/`); an
 * ignored directory is not entered. `.git` is never listed; ignore files apply unless
 * `respectGitignore` is false. Symbolic links are listed as such and never followed; `size` is
 * 0 for directories. Throws FsToolError `not_found` or `not_a_directory`.
 */
export async function listDirectory(options: ListDirectoryOptions): Promise<DirectoryListing> {
  const root = path.resolve(options.path);
  const info = await stat(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (!info) throw new FsToolError("not_found", `Directory does not exist: ${options.path}`);
  if (!info.isDirectory())
    throw new FsToolError("not_a_directory", `Path is not a directory: ${options.path}`);
  const limit = options.limit ?? 1000;
  const skip = (options.ignore ?? []).map((pattern) => compileGlob(pattern, { matchBase: true }));

  const collected: { abs: string; entry: DirectoryEntry }[] = [];
  let truncated = false;
  for await (const entry of walkTree({
    root,
    maxDepth: Math.max(1, options.depth ?? 1),
    respectIgnoreFiles: options.respectGitignore ?? true,
    skipNames: ALWAYS_SKIPPED,
    breadthFirst: true,
    include: (candidate, ignored) => !ignored && !skip.some((matches) => matches(candidate.rel)),
  })) {
    if (collected.length === limit) {
      truncated = true;
      break;
    }
    const type = entry.type === "directory" ? "directory" : entry.type === "symlink" ? "symlink" : "file";
    collected.push({ abs: entry.abs, entry: { path: entry.rel, type, size: 0 } });
  }
  await Promise.all(
    collected.map(async ({ abs, entry }) => {
      if (entry.type !== "directory") entry.size = (await lstat(abs).catch(() => undefined))?.size ?? 0;
    }),
  );
  const entries = collected.map((item) => item.entry).sort(treeOrder);
  return { entries, truncated };
}

function treeOrder(a: DirectoryEntry, b: DirectoryEntry): number {
  const left = a.path.split("/");
  const right = b.path.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] === right[i]) continue;
    const leftIsDir = i < left.length - 1 || a.type === "directory";
    const rightIsDir = i < right.length - 1 || b.type === "directory";
    if (leftIsDir !== rightIsDir) return leftIsDir ? -1 : 1;
    return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}
