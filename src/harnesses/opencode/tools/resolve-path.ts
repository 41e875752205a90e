import path from "node:path";

/** opencode resolves a relative path against the session's directory (`path.join(directory, p)`). */
export function resolvePath(file: string, cwd: string): string {
  return path.isAbsolute(file) ? file : path.join(cwd, file);
}
