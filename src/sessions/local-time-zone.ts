import { readFileSync, readlinkSync } from "node:fs";

export interface ZoneSources {
  env: Record<string, string | undefined>;
  readLink(path: string): string;
  readFile(path: string): string;
}

const system: Omit<ZoneSources, "env"> = {
  readLink: (file) => readlinkSync(file),
  readFile: (file) => readFileSync(file, "utf8"),
};

/**
 * The user's IANA time zone, from where the C library takes it: `TZ`, else the zoneinfo file
 * `/etc/localtime` links to, else `/etc/timezone`. `Intl` is the last resort only: its first
 * use loads ICU's data into a process that otherwise never needs it (docs/performance.md). The
 * name is the system's own (`Etc/UTC`, `Asia/Kolkata`), not ICU's canonical one (`UTC`,
 * `Asia/Calcutta`).
 */
export function localTimeZone(sources: Partial<ZoneSources> = {}): string {
  const { env, readLink, readFile } = { env: process.env, ...system, ...sources };
  const fromTz = env.TZ === undefined ? undefined : zoneName(env.TZ.replace(/^:/, ""));
  if (fromTz) return fromTz;
  if (env.TZ === "") return "UTC"; // POSIX: set but empty means UTC
  try {
    const linked = zoneName(readLink("/etc/localtime"));
    if (linked) return linked;
  } catch {
    // Not a link (a copied file) or missing.
  }
  try {
    const named = readFile("/etc/timezone").trim();
    if (named) return named;
  } catch {
    // Not a Debian-style system.
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
}

/** `Europe/Paris` from itself or from a path into a zoneinfo tree. */
function zoneName(value: string): string | undefined {
  if (!value) return undefined;
  const at = value.lastIndexOf("zoneinfo/");
  if (at >= 0) return value.slice(at + "zoneinfo/".length) || undefined;
  return value.startsWith("/") || value.startsWith(".") ? undefined : value;
}
