import {
  type BigIntStats,
  type Dirent,
  promises as fs,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from "node:fs";
import path from "node:path";

/**
 * Remembers, per root, what the last `.git` scan listed, so the next command's scan is one
 * round of `stat` calls instead of a walk. Keep one per runtime; it holds no handles.
 */
export interface GitScanCache {
  /** Keyed by root, depth and limit. */
  scans: Map<string, Scan>;
}

/** Roots remembered at most; the oldest is forgotten first. */
const MAX_ROOTS = 64;
/**
 * A directory changed this recently (ns) may change again within the same timestamp tick
 * without its ctime moving: its listing is not trusted for a later scan ("racy git").
 */
const RACY_NS = 2_000_000_000n;
/**
 * A root whose last scan listed at most this many directories is scanned again with
 * synchronous calls: a thread-pool round trip per call costs more than the calls themselves
 * for a small tree (docs/performance.md), and a large one stays off the event loop.
 */
const SYNC_DIRS = 100;

/** The file system calls of a scan; each resolves to undefined where the call failed. */
interface Io {
  stat(p: string): Promise<BigIntStats | undefined>;
  readdir(p: string): Promise<Dirent[] | undefined>;
  readFile(p: string): Promise<string | undefined>;
}

const threadPool: Io = {
  stat: (p) => fs.stat(p, { bigint: true }).catch(() => undefined),
  readdir: (p) => fs.readdir(p, { withFileTypes: true }).catch(() => undefined),
  readFile: (p) => fs.readFile(p, "utf8").catch(() => undefined),
};

const sync: Io = {
  stat: (p) => quietly(() => statSync(p, { bigint: true, throwIfNoEntry: false })),
  readdir: (p) => quietly(() => readdirSync(p, { withFileTypes: true })),
  readFile: (p) => quietly(() => readFileSync(p, "utf8")),
};

function quietly<T>(call: () => T): Promise<T | undefined> {
  try {
    return Promise.resolve(call());
  } catch {
    return Promise.resolve(undefined);
  }
}

interface Scan {
  /** Every directory listed, in walk order, with its stamp taken before it was listed. */
  listed: { dir: string; stamp: string | undefined }[];
  /** `.git` entries found, in walk order; only directories are reused as they are. */
  gits: { full: string; entry: Dirent }[];
}

export function createGitScanCache(): GitScanCache {
  return { scans: new Map() };
}

/**
 * `.git` entries below `root` (breadth first, at most `maxDepth` levels and `limit` directories
 * listed, the directories of one level listed at once) and what they point to. Reusing a cached
 * scan needs every listed directory to carry the same device, inode and ctime as when it was
 * listed: adding, removing or renaming an entry changes its directory's ctime, and no process
 * can set a ctime back (unlike an mtime, which `touch -d` rewrites). A `.git` file or link is
 * followed again on every call, since its content or target may have changed.
 */
export async function gitPaths(
  root: string,
  options: { maxDepth: number; limit: number; cache?: GitScanCache },
): Promise<string[]> {
  const { maxDepth, limit, cache } = options;
  const key = `${maxDepth}:${limit}:${root}`;
  const cached = cache?.scans.get(key);
  const io = cached !== undefined && cached.listed.length <= SYNC_DIRS ? sync : threadPool;
  const scan =
    cached !== undefined && (await unchanged(cached, io)) ? cached : await walk(root, maxDepth, limit, io);
  if (cache !== undefined && scan !== cached) {
    cache.scans.delete(key);
    cache.scans.set(key, scan);
    for (const old of cache.scans.keys()) {
      if (cache.scans.size <= MAX_ROOTS) break;
      cache.scans.delete(old);
    }
  }
  const found = await Promise.all(scan.gits.map(({ full, entry }) => gitEntry(full, entry, io)));
  return found.flat();
}

async function unchanged(scan: Scan, io: Io): Promise<boolean> {
  if (scan.listed.some(({ stamp }) => stamp === undefined)) return false;
  const stamps = await Promise.all(scan.listed.map(({ dir }) => stampOf(dir, io)));
  return stamps.every((stamp, i) => stamp !== undefined && stamp === scan.listed[i]?.stamp);
}

/** Device, inode and ctime; undefined when missing or changed too recently to be trusted. */
async function stampOf(dir: string, io: Io): Promise<string | undefined> {
  const stat = await io.stat(dir);
  if (stat === undefined) return undefined;
  const now = BigInt(Date.now()) * 1_000_000n;
  if (stat.ctimeNs > now - RACY_NS) return undefined;
  return `${stat.dev}:${stat.ino}:${stat.ctimeNs}`;
}

async function walk(root: string, maxDepth: number, limit: number, io: Io): Promise<Scan> {
  const scan: Scan = { listed: [], gits: [] };
  let queue = [root];
  for (let depth = 0; depth <= maxDepth && queue.length > 0; depth++) {
    const batch = queue.slice(0, Math.max(0, limit - scan.listed.length));
    const levels = await Promise.all(batch.map((dir) => listDir(dir, io)));
    const next: string[] = [];
    batch.forEach((dir, i) => {
      const level = levels[i]!;
      scan.listed.push({ dir, stamp: level.stamp });
      scan.gits.push(...level.gits);
      next.push(...level.dirs);
    });
    if (batch.length < queue.length) break;
    queue = next;
  }
  return scan;
}

interface Listing {
  stamp: string | undefined;
  gits: Scan["gits"];
  dirs: string[];
}

async function listDir(dir: string, io: Io): Promise<Listing> {
  // Stamped before listing: a change during the listing leaves a newer ctime behind.
  const stamp = await stampOf(dir, io);
  const listed = await io.readdir(dir);
  if (listed === undefined) return { stamp: undefined, gits: [], dirs: [] };
  // Sorted, so the same tree always gives the same bwrap argv.
  const entries = listed.sort((a, b) => (a.name < b.name ? -1 : 1));
  const gits: Scan["gits"] = [];
  const dirs: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.name === ".git") gits.push({ full, entry });
    else if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
      dirs.push(full);
  }
  return { stamp, gits, dirs };
}

async function gitEntry(full: string, entry: Dirent, io: Io): Promise<string[]> {
  if (entry.isDirectory()) return [full];
  if (entry.isSymbolicLink()) {
    // A link cannot be bound over; protect what it points to.
    const target = real(full);
    return target !== undefined && (await isGitDir(target, false, io)) ? [target] : [];
  }
  if (!entry.isFile()) return [];
  const paths = [full];
  const gitDir = await pointer(full, /^gitdir:\s*(.+)$/m, io);
  if (gitDir === undefined || !(await isGitDir(gitDir, false, io))) return paths;
  paths.push(gitDir);
  const common = await pointer(path.join(gitDir, "commondir"), /^(.+)$/m, io);
  if (common !== undefined && (await isGitDir(common, true, io))) paths.push(common);
  return paths;
}

/** The existing, canonical path named inside `file` (relative to the file's directory). */
async function pointer(file: string, pattern: RegExp, io: Io): Promise<string | undefined> {
  const text = await io.readFile(file);
  if (text === undefined) return undefined;
  const named = pattern.exec(text)?.[1]?.trim();
  return named ? real(path.resolve(path.dirname(file), named)) : undefined;
}

async function isGitDir(dir: string, needObjects: boolean, io: Io): Promise<boolean> {
  const [head, objects] = await Promise.all([
    io.stat(path.join(dir, "HEAD")),
    io.stat(path.join(dir, "objects")),
  ]);
  return head?.isFile() === true && (!needObjects || objects?.isDirectory() === true);
}

/**
 * Canonical path, or undefined when it does not exist. Synchronous: microseconds. Most paths
 * asked for are missing (toolchain directories of the home): a `stat` that returns nothing
 * costs a fraction of the exception `realpath` would throw.
 */
export function real(p: string): string | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false }) === undefined ? undefined : realpathSync.native(p);
  } catch {
    return undefined;
  }
}
