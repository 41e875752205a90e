import { access, constants, stat } from "node:fs/promises";
import path from "node:path";
import { type GrepTarget, grepWithJs } from "./grep-fallback.js";
import { GrepCollector } from "./grep-output.js";
import { grepWithRipgrep } from "./grep-ripgrep.js";
import { FsToolError, type GrepOptions, type GrepResult } from "./types.js";

/** `auto`: ripgrep when `rg` is on PATH (and `OI_NO_RIPGREP=1` is not set), the JS search otherwise. */
export type GrepBackend = "auto" | "ripgrep" | "js";

const ALWAYS_SKIPPED: ReadonlySet<string> = new Set([".git", "node_modules"]);

/**
 * Searches file contents with a regular expression. Both backends select the same files
 * (ignore files honoured, hidden files searched, `.git` and `node_modules` skipped, binary
 * files and symbolic links skipped, a single file searched whatever the filters say) and give
 * the same lines in the same order (files by path). `offset`/`headLimit` count output lines in
 * content mode (`--` separators included) and files otherwise; `lineNumbers` defaults to false.
 * `files` lists the files behind the returned lines. Throws FsToolError `not_found` for a
 * missing path, `invalid_pattern` for a bad regex, glob or file type, and the signal's reason
 * when aborted.
 */
export async function grepFiles(options: GrepOptions, backend: GrepBackend = "auto"): Promise<GrepResult> {
  options.signal.throwIfAborted();
  const root = path.resolve(options.path);
  const info = await stat(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (!info) throw new FsToolError("not_found", `Path does not exist: ${options.path}`);
  // A FIFO or device would block the search forever; there is nothing to search in them.
  if (!info.isDirectory() && !info.isFile()) return { lines: [], files: [], truncated: false };
  const target: GrepTarget = { root, isDirectory: info.isDirectory(), skipNames: ALWAYS_SKIPPED };
  const collector = () =>
    new GrepCollector({
      offset: options.offset,
      headLimit: options.headLimit,
      context: options.outputMode === "content" && Boolean(options.before || options.after),
      lineNumbers: options.lineNumbers ?? false,
    });

  const useRipgrep = backend === "ripgrep" || (backend === "auto" && process.env.OI_NO_RIPGREP !== "1");
  const rg = useRipgrep ? await findOnPath("rg") : undefined;
  if (backend === "ripgrep" && !rg) throw new Error("ripgrep (rg) is not installed or not on PATH");
  options.signal.throwIfAborted();
  if (rg) {
    const out = collector();
    try {
      await grepWithRipgrep(rg, options, target, out);
      return out.result();
    } catch (error) {
      // `rg` removed between the lookup and the spawn: search without it.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || options.signal.aborted) throw error;
    }
  }
  const out = collector();
  await grepWithJs(options, target, out);
  return out.result();
}

async function findOnPath(name: string): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
