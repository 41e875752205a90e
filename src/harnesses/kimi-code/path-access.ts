import os from "node:os";
import path from "node:path";

/**
 * Kimi Code's path policy for its file tools (kimi-code `packages/agent-core-v2/src/tool/
 * path-access.ts`): relative paths resolve against the working directory, a relative path that
 * lands outside the workspace is refused (absolute ones are allowed), `~` expands to home, and
 * well-known secret files are refused for reads and writes. The messages are upstream's.
 */

export type PathOperation = "read" | "write" | "search";

export type ResolvedPath = { ok: true; path: string } | { ok: false; error: string };

/** The folder Glob and Grep search: the working directory unless the model names one. */
export function resolveSearchRoot(
  dir: string | undefined,
  ctx: { cwd: string; roots: string[] },
): ResolvedPath {
  if (dir === undefined) return { ok: true, path: ctx.cwd };
  return resolveKimiPath({
    path: dir,
    cwd: ctx.cwd,
    roots: ctx.roots,
    operation: "search",
    checkSensitive: false,
  });
}

export function resolveKimiPath(options: {
  path: string;
  cwd: string;
  roots: string[];
  operation: PathOperation;
  /** Search tools (Glob, Grep) filter secrets from their results instead of refusing the root. */
  checkSensitive: boolean;
}): ResolvedPath {
  const raw = options.path;
  const expanded =
    raw === "~" ? os.homedir() : raw.startsWith("~/") ? path.join(os.homedir(), raw.slice(2)) : raw;
  const absolute = path.resolve(options.cwd, expanded);
  if (options.checkSensitive && isSensitiveFile(absolute)) {
    return {
      ok: false,
      error: `"${raw}" matches a sensitive-file pattern (env / credential / SSH key). Access is blocked to protect secrets.`,
    };
  }
  const inside = options.roots.some((root) => isWithin(absolute, root));
  if (!inside && !path.isAbsolute(expanded)) {
    const verb =
      options.operation === "write"
        ? "write or edit a file"
        : options.operation === "search"
          ? "search"
          : "read a file";
    return {
      ok: false,
      error: `"${raw}" is not an absolute path. You must provide an absolute path to ${verb} outside the working directory.`,
    };
  }
  return { ok: true, path: absolute };
}

export function isWithin(candidate: string, dir: string): boolean {
  const relative = path.relative(dir, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** `candidate` relative to `base` when inside it (`.` for `base` itself), else unchanged. */
export function relativizeIfUnder(candidate: string, base: string): string {
  if (!isWithin(candidate, base)) return candidate;
  return path.relative(base, candidate) || ".";
}

const SENSITIVE_BASENAMES = new Set([".env", "id_rsa", "id_ed25519", "id_ecdsa", "credentials"]);
const ENV_EXEMPTIONS = new Set([".env.example", ".env.sample", ".env.template"]);
const PUBLIC_KEYS = new Set(["id_rsa.pub", "id_ed25519.pub", "id_ecdsa.pub"]);
const KEY_PREFIXES = ["id_rsa", "id_ed25519", "id_ecdsa", "credentials"];
const DOT_VARIANTS = new Set([
  ".bak",
  ".backup",
  ".copy",
  ".disabled",
  ".key",
  ".old",
  ".orig",
  ".pem",
  ".save",
  ".tmp",
]);
const CLOUD_CREDENTIALS = [".aws/credentials", ".gcp/credentials"];

/** Upstream's `isSensitiveFile`: `.env*` (templates excepted), SSH private keys, cloud credentials. */
export function isSensitiveFile(file: string): boolean {
  const name = path.basename(file).toLowerCase();
  const lower = file.toLowerCase();
  if (ENV_EXEMPTIONS.has(name) || PUBLIC_KEYS.has(name)) return false;
  if (SENSITIVE_BASENAMES.has(name) || name.startsWith(".env.")) return true;
  for (const prefix of KEY_PREFIXES) {
    if (name.length <= prefix.length || !name.startsWith(prefix)) continue;
    const suffix = name.slice(prefix.length);
    if (suffix[0] === "-" || suffix[0] === "_") return true;
    if (suffix[0] === "." && DOT_VARIANTS.has(suffix)) return true;
  }
  return CLOUD_CREDENTIALS.some((suffix) => lower.endsWith(`/${suffix}`) || lower.includes(`/${suffix}/`));
}
