import path from "node:path";
import { FsToolError } from "../../../tools/fs/types.js";

/** Gemini CLI resolves relative tool paths against the project directory. */
export function resolveToolPath(cwd: string, file: string): string {
  return path.resolve(cwd, file);
}

/** `path` relative to `cwd` with `/` separators, as Gemini CLI shows paths in messages. */
export function displayPath(cwd: string, file: string): string {
  return path.relative(cwd, file).replace(/\\/g, "/");
}

export function isFsError(error: unknown, ...codes: FsToolError["code"][]): error is FsToolError {
  return error instanceof FsToolError && (codes.length === 0 || codes.includes(error.code));
}

/** The folders a search covers: the one the model names (relative to `cwd`), else every workspace root. */
export function searchDirs(dir: string | undefined, cwd: string, roots: string[]): string[] {
  if (dir) return [resolveToolPath(cwd, dir)];
  return roots.length > 0 ? roots : [cwd];
}
