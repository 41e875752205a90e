import { mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FsPort } from "./types.js";

/**
 * File access through node:fs. Reads are strict UTF-8 and keep a byte-order mark, so a file
 * read and written back is unchanged; a file that is not UTF-8 text is refused (its error code
 * is `ERR_ENCODING_INVALID_ENCODED_DATA`) rather than silently mangled by an edit.
 */
export function createLocalFs(): FsPort {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  return {
    async readText(file) {
      // Rejects with the node error (`code: "ENOENT"` for a missing file).
      return decoder.decode(await readFile(file));
    },
    readBytes: (file) => readFile(file),
    async writeText(file, content) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content, "utf8");
    },
    async remove(file) {
      // unlink refuses directories, which is what a file removal should do.
      await unlink(file);
    },
    async stat(file) {
      try {
        const info = await stat(file);
        return {
          isFile: info.isFile(),
          isDirectory: info.isDirectory(),
          size: info.size,
          mtimeMs: info.mtimeMs,
        };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "ENOTDIR") return undefined;
        throw error;
      }
    },
  };
}
