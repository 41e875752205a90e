import { stat } from "node:fs/promises";
import path from "node:path";
import { compileGlob, hasGlobMagic } from "./glob-pattern.js";
import { FsToolError, type GlobOptions, type GlobResult } from "./types.js";
import { type WalkEntry, walkTree } from "./walk-tree.js";

const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);
const STAT_BATCH = 256;

/**
 * Finds files matching a glob, newest first (ties by path). The pattern is anchored at `cwd`
 * (`*.ts` matches only direct children; use `**\/*.ts` for any depth) or may be absolute. Its
 * leading literal directories are walked into directly, so `src/**\/*.ts` reads only `src`;
 * `caseSensitive: false` applies to the part after them. Only files are returned, symbolic
 * links to files included (their target's mtime); directory links are not followed. Throws
 * FsToolError `not_found` / `not_a_directory` for a bad `cwd`, `invalid_pattern` for an
 * unclosed `{` or `[`, and the signal's reason when aborted.
 */
export async function globFiles(options: GlobOptions): Promise<GlobResult> {
  const limit = options.limit ?? 1000;
  await checkDirectory(options.cwd);
  const { base, rest } = options.select
    ? { base: options.cwd, rest: options.pattern }
    : splitStaticPrefix(options.pattern, options.cwd);
  if (rest === "") {
    const info = await stat(base).catch(() => undefined);
    return { files: info?.isFile() ? [base] : [], truncated: false };
  }
  const matches = compileGlob(rest, { caseSensitive: options.caseSensitive ?? true });
  const maxDepth = rest.split("/").some((segment) => segment.includes("**"))
    ? undefined
    : rest.split("/").length;
  const baseInfo = await stat(base).catch(() => undefined);
  if (!baseInfo?.isDirectory()) return { files: [], truncated: false };

  const select =
    options.select ??
    ((entry: WalkEntry, state: { matches: boolean; ignored: boolean }) =>
      !state.ignored && (entry.type === "directory" || state.matches));
  const candidates: string[] = [];
  for await (const entry of walkTree({
    root: base,
    signal: options.signal,
    maxDepth,
    respectIgnoreFiles: options.respectGitignore ?? true,
    skipNames: options.skipNames ?? ALWAYS_SKIPPED,
    include: (entry, ignored) => select(entry, { matches: matches(entry.rel), ignored }),
  })) {
    if (entry.type === "file" || entry.type === "symlink") candidates.push(entry.abs);
  }

  const found: { file: string; mtimeMs: number }[] = [];
  for (let i = 0; i < candidates.length; i += STAT_BATCH) {
    options.signal.throwIfAborted();
    const batch = candidates.slice(i, i + STAT_BATCH);
    const infos = await Promise.all(batch.map((file) => stat(file).catch(() => undefined)));
    infos.forEach((info, k) => {
      if (info?.isFile()) found.push({ file: batch[k]!, mtimeMs: info.mtimeMs });
    });
  }
  found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { files: found.slice(0, limit).map((f) => f.file), truncated: found.length > limit };
}

/** Splits `src/lib/**\/*.ts` into the directory to walk (`<cwd>/src/lib`) and the rest (`**\/*.ts`). */
function splitStaticPrefix(pattern: string, cwd: string): { base: string; rest: string } {
  const absolute = pattern.startsWith("/");
  const segments = pattern.split("/").filter((segment) => segment !== "" && segment !== ".");
  let literal = 0;
  while (literal < segments.length && !hasGlobMagic(segments[literal]!)) literal++;
  const prefix = segments.slice(0, literal).join("/");
  const base = absolute ? path.resolve("/", prefix) : path.resolve(cwd, prefix);
  if (literal === segments.length) return { base, rest: "" };
  return { base, rest: segments.slice(literal).join("/") };
}

async function checkDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (!info) throw new FsToolError("not_found", `Directory does not exist: ${dir}`);
  if (!info.isDirectory()) throw new FsToolError("not_a_directory", `Path is not a directory: ${dir}`);
}
