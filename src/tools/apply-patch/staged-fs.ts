import type { FsPort } from "../types.js";

/**
 * An `FsPort` that reads through to `base` but keeps writes and removals in memory, so a dry run
 * walks exactly the path a real run takes (a later hunk sees what an earlier one wrote) and
 * touches nothing. Directories are only ever reported from `base`.
 */
export function createStagedFs(base: FsPort): FsPort {
  // A path maps to its staged write, or to null once removed.
  const staged = new Map<string, { content: string; mtimeMs: number } | null>();
  return {
    async readText(path) {
      const write = staged.get(path);
      if (write === null) throw missing(path);
      return write ? write.content : base.readText(path);
    },
    async readBytes(path) {
      const write = staged.get(path);
      if (write === null) throw missing(path);
      return write ? new TextEncoder().encode(write.content) : base.readBytes(path);
    },
    async writeText(path, content) {
      staged.set(path, { content, mtimeMs: Date.now() });
    },
    async remove(path) {
      if (staged.get(path) === null || (!staged.has(path) && !(await base.stat(path)))) throw missing(path);
      staged.set(path, null);
    },
    async stat(path) {
      const write = staged.get(path);
      if (write === undefined) return base.stat(path);
      if (write === null) return undefined;
      return {
        isFile: true,
        isDirectory: false,
        size: Buffer.byteLength(write.content),
        mtimeMs: write.mtimeMs,
      };
    },
  };
}

function missing(path: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, '${path}'`), { code: "ENOENT" });
}
