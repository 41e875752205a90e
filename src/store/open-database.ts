import { existsSync, mkdirSync, renameSync, type Stats, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { migrate } from "./migrations.js";
import { StoreError } from "./store-error.js";

export interface OpenedDatabase {
  db: Database.Database;
  /** Where a corrupt database was moved before a fresh one was created. */
  recovered?: string;
}

/**
 * Opens (creating if needed) a migrated SQLite database in WAL mode. A file SQLite reports as
 * corrupt is moved aside with its -wal/-shm to `<path>.corrupt-<timestamp>` and replaced by a
 * fresh database: losing history is bad, but a daemon that cannot start is worse, and the
 * quarantined copy stays available for recovery by hand.
 *
 * `quick_check` reads every page, a cost that grows with the file (docs/performance.md), so it
 * runs only when the last connection did not close cleanly: SQLite deletes the -wal file when
 * the last connection closes, so a -wal found before opening means a crash, a power loss, or
 * another daemon using the file right now (checking then is merely cautious).
 * A header SQLite cannot read fails the open itself and is quarantined either way.
 */
export function openDatabase(path: string, now: () => Date): OpenedDatabase {
  mkdirSync(dirname(path), { recursive: true });
  const deadline = Date.now() + BUSY_RETRY_MS;
  let recovered: string | undefined;
  let corruptions = 0;
  for (;;) {
    let db: Database.Database | undefined;
    let inode: number | undefined;
    try {
      const unclean = existsSync(`${path}-wal`);
      const fresh = (statIfExists(path)?.size ?? 0) === 0;
      db = new Database(path);
      inode = statIfExists(path)?.ino;
      configure(db, { check: unclean, fresh });
      migrate(db);
      if (fresh) db.pragma("synchronous = NORMAL");
      return recovered === undefined ? { db } : { db, recovered };
    } catch (error) {
      db?.close();
      // SQLite answers SQLITE_BUSY without consulting busy_timeout in a few places while
      // another process opens, switches to WAL or closes the same file (seen rarely, at
      // `PRAGMA journal_mode`, with several daemons starting at once); opening again succeeds.
      if (isBusy(error) && Date.now() < deadline) {
        sleepSync(5 + Math.random() * 20);
        continue;
      }
      if (!isCorruption(error) || recovered !== undefined || ++corruptions > 1) throw error;
      // Another daemon may have quarantined and replaced the file since we opened it; then the
      // file at `path` is a new, healthy one and must not be moved aside again.
      if (inode !== undefined && statIfExists(path)?.ino === inode) recovered = quarantine(path, now());
    }
  }
}

/** Matches busy_timeout: how long opening keeps retrying when another process holds the file. */
const BUSY_RETRY_MS = 5000;

function configure(db: Database.Database, options: { check: boolean; fresh: boolean }): void {
  // busy_timeout first so every later lock (including the switch to WAL) waits, not fails.
  db.pragma("busy_timeout = 5000");
  // A new file holds nothing to lose: create it and the schema without the half a dozen fsyncs
  // (journal, WAL, directory) that made a first start wait tens of ms on a busy disk. Power loss
  // in that moment leaves at worst an empty or half-migrated file: WAL frames are checksummed,
  // so the next open migrates it again, or quarantines a file it cannot read.
  if (options.fresh) db.pragma("synchronous = OFF");
  const mode = db.pragma("journal_mode = WAL", { simple: true });
  if (mode !== "wal") {
    throw new StoreError(
      "wal_unavailable",
      `Could not enable WAL journaling for ${db.name} (SQLite kept "${String(mode)}"); ` +
        "the state database must live on a local filesystem that supports shared memory.",
    );
  }
  // A commit reaches the OS before it returns, so a crash of the daemon (even kill -9) loses
  // nothing; only power loss or a kernel crash can, and `Store.sync()` at each turn's end bounds
  // that to the running turn. FULL would fsync every event, slowing each commit to the disk's
  // pace (docs/performance.md).
  if (!options.fresh) db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  if (!options.check) return;
  const problems = db.pragma("quick_check(1)", { simple: true });
  if (problems !== "ok") throw new CorruptDatabase(db.name, String(problems));
}

class CorruptDatabase extends Error {
  readonly code = "SQLITE_CORRUPT";
  constructor(path: string, problem: string) {
    super(`quick_check failed for ${path}: ${problem}`);
  }
}

function sqliteCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "";
}

const isCorruption = (error: unknown): boolean => /^SQLITE_(CORRUPT|NOTADB)/.test(sqliteCode(error));
const isBusy = (error: unknown): boolean => /^SQLITE_BUSY/.test(sqliteCode(error));

function sleepSync(ms: number): void {
  // Opening is synchronous by contract (the store is), so wait without returning to the loop.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function quarantine(path: string, at: Date): string {
  const stamp = at.toISOString().replace(/[:.]/g, "-");
  let target = `${path}.corrupt-${stamp}`;
  for (let n = 1; existsSync(target); n++) target = `${path}.corrupt-${stamp}-${n}`;
  renameSync(path, target);
  // The -wal belongs to the corrupt file; keeping the pair together lets SQLite open them later.
  for (const suffix of ["-wal", "-shm"]) {
    try {
      renameSync(path + suffix, target + suffix);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return target;
}

/** The file's stat, or undefined when it does not exist. */
function statIfExists(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
