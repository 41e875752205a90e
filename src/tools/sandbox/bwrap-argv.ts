import path from "node:path";

export type SandboxMode = "read-only" | "workspace-write";

export interface BwrapOptions {
  /** Workspace roots, absolute and canonical (symlinks resolved): writable in workspace-write. */
  roots: string[];
  mode: SandboxMode;
  /** Share the host's network namespace (an approved escalation); otherwise only a private `lo`. */
  network: boolean;
  /** The user's home, hidden behind an empty tmpfs; roots inside it are bound back on top. */
  home?: string;
  /** Hidden behind an empty tmpfs even inside a root (the daemon's own home: database, config). */
  hidden?: string[];
  /** Bound read-only over everything else (`.git` directories and files, their targets). */
  readOnly?: string[];
  /** Private, empty, writable directories. Default `["/tmp"]`. */
  tmp?: string[];
  /** Working directory inside the sandbox. */
  cwd?: string;
  /**
   * `--disable-userns --assert-userns-disabled` (bubblewrap 0.8+). Default true; only an older
   * bubblewrap, which lacks the flags, turns it off.
   */
  disableUserns?: boolean;
}

/**
 * The bubblewrap flags of the root-safe shape (docs/security.md explains each one), without the
 * trailing `-- command`. Pure: paths are taken as given, so the caller resolves symlinks and
 * drops paths that do not exist (bwrap fails on a missing source).
 *
 * `--unshare-user` is explicit because bwrap skips its implicit user namespace when started as
 * real uid 0, and root would then keep every capability inside (security.md §0.1).
 */
export function bwrapArgv(options: BwrapOptions): string[] {
  const argv = ["--unshare-user", "--unshare-pid"];
  if (!options.network) argv.push("--unshare-net");
  argv.push("--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (options.disableUserns ?? true) argv.push("--disable-userns", "--assert-userns-disabled");
  argv.push("--cap-drop", "ALL", "--die-with-parent", "--new-session");
  argv.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const mount of orderMounts(options)) {
    if (mount.kind === "tmpfs") argv.push("--tmpfs", mount.path);
    else argv.push(`--${mount.kind}`, mount.path, mount.path);
  }
  if (options.cwd !== undefined) argv.push("--chdir", options.cwd);
  return argv;
}

interface Mount {
  kind: "tmpfs" | "bind" | "ro-bind";
  path: string;
  /** Among mounts at the same depth, the lower rank goes first (so the later one wins). */
  rank: number;
}

/**
 * A mount hides whatever an earlier mount put below its path, so mounts go parents first
 * (sorted by depth). That makes one rule work for every nesting: a root inside the hidden home
 * is bound back after the home's tmpfs, a home inside a root is hidden after the root is bound,
 * and `.git` paths are bound read-only after the root that contains them.
 */
function orderMounts(options: BwrapOptions): Mount[] {
  const writable = options.mode === "workspace-write";
  const mounts: Mount[] = [
    ...(options.tmp ?? ["/tmp"]).map((p) => ({ kind: "tmpfs" as const, path: p, rank: 0 })),
    ...(options.home !== undefined && options.home !== "/"
      ? [{ kind: "tmpfs" as const, path: options.home, rank: 1 }]
      : []),
    ...options.roots.map((p) => ({
      kind: writable ? ("bind" as const) : ("ro-bind" as const),
      path: p,
      rank: 2,
    })),
    ...(options.hidden ?? []).map((p) => ({ kind: "tmpfs" as const, path: p, rank: 3 })),
    ...(options.readOnly ?? []).map((p) => ({ kind: "ro-bind" as const, path: p, rank: 4 })),
  ];
  const seen = new Set<string>();
  return mounts
    .map((mount) => {
      if (!path.isAbsolute(mount.path)) throw new TypeError(`sandbox paths must be absolute: ${mount.path}`);
      return { ...mount, path: path.normalize(mount.path).replace(/(.)\/$/, "$1") };
    })
    .filter((mount) => {
      const key = `${mount.kind} ${mount.path}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => depth(a.path) - depth(b.path) || a.rank - b.rank);
}

function depth(p: string): number {
  return p === "/" ? 0 : p.split("/").length - 1;
}
