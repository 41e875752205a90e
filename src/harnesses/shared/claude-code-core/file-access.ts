import path from "node:path";
import { readTextFile } from "../../../tools/fs/read-text-file.js";
import type { ReadTracker } from "../../../tools/fs/read-tracker.js";
import { FsToolError, type TextFile } from "../../../tools/fs/types.js";
import type { FsPort } from "../../../tools/types.js";

/**
 * The file checks Claude Code's Read, Edit, MultiEdit and Write share: paths resolved against the
 * session's cwd, Read-before-write and "modified since read" with Claude Code's exact messages
 * (FileEditTool/FileWriteTool `validateInput`, errorCode 6 and 7).
 */

export const NOT_READ_MESSAGE = "File has not been read yet. Read it first before writing to it.";
export const STALE_MESSAGE =
  "File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.";
export const NOT_FOUND_MESSAGE = "File does not exist.";

/** Claude Code asks for absolute paths but resolves relative ones against its cwd. */
export function resolveModelPath(filePath: string, cwd: string): string {
  return path.isAbsolute(filePath) ? path.normalize(filePath) : path.resolve(cwd, filePath);
}

/** The file, or undefined when it does not exist; other failures throw `FsToolError`. */
export async function readIfExists(fs: FsPort, file: string): Promise<TextFile | undefined> {
  try {
    return await readTextFile({ fs, path: file });
  } catch (error) {
    if (error instanceof FsToolError && error.code === "not_found") return undefined;
    throw error;
  }
}

/** Why an existing file may not be written yet, or undefined when it may. */
export function freshnessProblem(tracker: ReadTracker, file: TextFile): string | undefined {
  const state = tracker.check(file.path, file.mtimeMs);
  if (state === "not_read") return NOT_READ_MESSAGE;
  if (state === "changed") return STALE_MESSAGE;
  return undefined;
}

/** After our own write the file counts as read at its new mtime, so edits can follow edits. */
export async function recordOwnWrite(options: {
  files: ReadTracker;
  fs: FsPort;
  file: string;
}): Promise<void> {
  const written = await readTextFile({ fs: options.fs, path: options.file });
  options.files.recordWrite(options.file, written.mtimeMs);
}

/** The message Claude Code shows for a file the text tools cannot handle. */
export function fileProblemMessage(error: unknown, file: string): string {
  if (!(error instanceof FsToolError)) return error instanceof Error ? error.message : String(error);
  switch (error.code) {
    case "not_found":
      return NOT_FOUND_MESSAGE;
    case "is_directory":
      return `EISDIR: illegal operation on a directory, read '${file}'`;
    case "binary":
      return `This tool cannot read binary files. The file appears to be a binary ${path.extname(file) || "data"} file. Please use appropriate tools for binary file analysis.`;
    default:
      return error.message;
  }
}
