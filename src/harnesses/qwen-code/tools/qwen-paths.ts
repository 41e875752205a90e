import path from "node:path";

/** Qwen Code's file tools take absolute paths only. */
export function isAbsolute(file: string): boolean {
  return path.isAbsolute(file);
}

/** Qwen's `shortenPath(makeRelative(...))` for messages: relative to the project when inside it. */
export function relativeToProject(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith("..") ? relative : file;
}

export function failure(message: string) {
  return { output: message, isError: true };
}
