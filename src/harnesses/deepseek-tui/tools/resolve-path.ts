import path from "node:path";

/** CodeWhale resolves a path against the workspace; absolute paths stay as they are. */
export function resolvePath(file: string, cwd: string): string {
  return path.resolve(cwd, file);
}

/** How Rust's `io::Error` reads for the failures a file tool meets; other errors keep their message. */
export function ioText(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return "No such file or directory (os error 2)";
  if (code === "EISDIR") return "Is a directory (os error 21)";
  if (code === "EACCES") return "Permission denied (os error 13)";
  if (code === "ENOTDIR") return "Not a directory (os error 20)";
  if (error instanceof TypeError) return "stream did not contain valid UTF-8";
  return error instanceof Error ? error.message : String(error);
}
