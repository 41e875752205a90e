import type { FileChange } from "./file-change.js";

/**
 * A parsed patch could not be applied. The message is Codex's text for the failure (it names the
 * absolute path at fault). Hunks apply in order, so `applied` lists the changes already written
 * before the failing hunk; they stay on disk, as with Codex.
 */
export class ApplyPatchError extends Error {
  readonly code = "patch_apply";
  readonly applied: FileChange[];

  constructor(message: string, applied: FileChange[] = []) {
    super(message);
    this.name = "ApplyPatchError";
    this.applied = applied;
  }
}

/** Node error codes spelled the way Rust's `io::Error` prints them, as in Codex's messages. */
const IO_ERROR_TEXT: Record<string, string> = {
  ENOENT: "No such file or directory (os error 2)",
  EPERM: "Operation not permitted (os error 1)",
  EACCES: "Permission denied (os error 13)",
  ENOTDIR: "Not a directory (os error 20)",
  EISDIR: "Is a directory (os error 21)",
  ERR_ENCODING_INVALID_ENCODED_DATA: "stream did not contain valid UTF-8",
};

export function ioErrorText(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && IO_ERROR_TEXT[code]) return IO_ERROR_TEXT[code];
  return error instanceof Error ? error.message : String(error);
}
