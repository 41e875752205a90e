import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
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
 */
export function openDatabase(path: string, now: () => Date): OpenedDatabase {
  mkdirSync(dirname(path), { recursive: true });
  let recovered: string | undefined;
  // Two rounds at most: the original file, then the fresh one after quarantine.
  for (let attempt = 0; ; attempt++) {
    let db: Database.Database | undefined;
    let inode: number | undefined;
    try {
      db = new Database(path);
      inode = fileInode(path);
      configure(db);
      migrate(db);
      return recovered === undefined ? { db } : { db, recovered };
    } catch (error) {
      db?.close();
      if (!isCorruption(error) || attempt > 0) throw error;
      // Another daemon may have quarantined and replaced the file since we opened it; then the
      // file at `path` is a new, healthy one and must not be moved aside again.
      if (inode !== undefined && fileInode(path) === inode) recovered = quarantine(path, now());
    }
  }
}

function configure(db: Database.Database): void {
  // busy_timeout first so every later lock (including the switch to WAL) waits, not fails.
  db.pragma("busy_timeout = 5000");
  const mode = db.pragma("journal_mode = WAL", { simple: true });
  if (mode !== "wal") {
    throw new StoreError(
      "wal_unavailable",
      `Could not enable WAL journaling for ${db.name} (SQLite kept "${String(mode)}"); ` +
        "the state database must live on a local filesystem that supports shared memory.",
    );
  }
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  const problems = db.pragma("quick_check(1)", { simple: true });
  if (problems !== "ok") throw new CorruptDatabase(db.name, String(problems));
}

class CorruptDatabase extends Error {
  readonly code = "SQLITE_CORRUPT";
  constructor(path: string, problem: string) {
    super(`quick_check failed for ${path}: ${problem}`);
  }
}

function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code);
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

function fileInode(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
