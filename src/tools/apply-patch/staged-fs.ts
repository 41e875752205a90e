import type { FsPort } from "../types.js";

/**
 * An `FsPort` that reads through to `base` but keeps writes and removals in memory, so a dry run
 * walks exactly the path a real run takes (a later hunk sees what an earlier one wrote) and
 * touches nothing. Directories are only ever reported from `base`.
 */
export function createStagedFs(base: FsPort): FsPort {
  // A path maps to its staged content, or to null once removed.
  const staged = new Map<string, string | null>();
  return {
    async readText(path) {
      const content = staged.get(path);
      if (content === null) throw missing(path);
      return content ?? base.readText(path);
    },
    async writeText(path, content) {
      staged.set(path, content);
    },
    async remove(path) {
      if (staged.get(path) === null || (!staged.has(path) && !(await base.stat(path)))) throw missing(path);
      staged.set(path, null);
    },
    async stat(path) {
      if (!staged.has(path)) return base.stat(path);
      return staged.get(path) === null ? undefined : { isFile: true, isDirectory: false };
    },
  };
}

function missing(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: "ENOENT" });
}
