import os from "node:os";
import path from "node:path";

/**
 * Kimi CLI 1.49.0's path handling (`utils/path.py`, `utils/sensitive.py`): `~` expanded, a
 * relative path taken from the working directory and normalized; a path outside the workspace
 * roots must have been given absolute.
 */
export function resolveUserPath(raw: string, cwd: string): string {
  const expanded = raw === "~" || raw.startsWith("~/") ? path.join(os.homedir(), raw.slice(1)) : raw;
  return path.resolve(cwd, expanded);
}

export function isWithinRoots(absolute: string, roots: readonly string[]): boolean {
  return roots.some(
    (root) => absolute === root || absolute.startsWith(root.endsWith(path.sep) ? root : root + path.sep),
  );
}

/** 1.49.0's refusal of a relative path that leaves the workspace; `verb` is read, write or edit. */
export function outsideError(options: {
  raw: string;
  absolute: string;
  roots: readonly string[];
  verb: string;
}) {
  const { raw, absolute, roots, verb } = options;
  if (isWithinRoots(absolute, roots) || path.isAbsolute(raw)) return undefined;
  return `\`${raw}\` is not an absolute path. You must provide an absolute path to ${verb} a file outside the working directory.`;
}

const SENSITIVE = [
  ".env",
  ".env.*",
  "id_rsa",
  "id_ed25519",
  "id_ecdsa",
  ".aws/credentials",
  ".gcp/credentials",
  "credentials",
];
const EXEMPT = new Set([".env.example", ".env.sample", ".env.template"]);

/** High-confidence secret files only, as 1.49.0 lists them. */
export function isSensitiveFile(file: string): boolean {
  const name = path.basename(file);
  if (EXEMPT.has(name)) return false;
  return SENSITIVE.some((pattern) =>
    pattern.includes("/")
      ? file.endsWith(pattern) || file.includes(`/${pattern}`)
      : pattern.endsWith(".*")
        ? name.startsWith(pattern.slice(0, -1))
        : name === pattern,
  );
}

/** `sensitive_file_warning`: the names skipped, at most five of them. */
export function sensitiveWarning(files: readonly string[]): string {
  const names = [...new Set(files.map((file) => path.basename(file)))].sort();
  let list = names.slice(0, 5).join(", ");
  if (names.length > 5) list += `, ... (${names.length} files total)`;
  return `Skipped ${files.length} sensitive file(s) (${list}) to protect secrets. These files may contain credentials or private keys.`;
}
