import type { Database } from "better-sqlite3";
import { StoreError } from "./store-error.js";

/**
 * One schema step. `up` runs inside a `BEGIN IMMEDIATE` transaction together with the
 * `user_version` bump, so a crash mid-migration rolls both back and the step re-runs cleanly
 * on the next open. Never edit a shipped migration; append a new one.
 */
export interface Migration {
  name: string;
  up(db: Database): void;
}

export const migrations: readonly Migration[] = [
  {
    name: "sessions, events, permission rules",
    up(db) {
      db.exec(`
        CREATE TABLE sessions (
          id TEXT PRIMARY KEY NOT NULL,
          cwd TEXT NOT NULL,
          additional_directories TEXT NOT NULL,
          mcp_servers TEXT NOT NULL,
          title TEXT,
          harness TEXT,
          model TEXT,
          mode TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
        CREATE INDEX sessions_by_recency ON sessions (updated_at DESC, id DESC);
        CREATE INDEX sessions_by_cwd ON sessions (cwd, updated_at DESC, id DESC);

        CREATE TABLE events (
          session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
          seq INTEGER NOT NULL CHECK (seq > 0),
          at TEXT NOT NULL,
          type TEXT NOT NULL,
          data TEXT NOT NULL,
          PRIMARY KEY (session_id, seq)
        ) STRICT;

        CREATE TABLE permission_rules (
          project TEXT NOT NULL,
          key TEXT NOT NULL,
          decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
          created_at TEXT NOT NULL,
          UNIQUE (project, key)
        ) STRICT;
      `);
    },
  },
  {
    // The token ledger reads `usage` events across sessions by time (usage-ledger.ts).
    name: "usage events by time",
    up(db) {
      db.exec("CREATE INDEX events_usage_by_time ON events (at) WHERE type = 'usage'");
    },
  },
  {
    // A subagent's session names the session whose tool call started it and its subagent type
    // (what a resume opens it as); deleting the parent deletes its children with their histories.
    name: "subagent sessions",
    up(db) {
      db.exec(`
        ALTER TABLE sessions ADD COLUMN parent_id TEXT REFERENCES sessions (id) ON DELETE CASCADE;
        ALTER TABLE sessions ADD COLUMN agent_type TEXT;
        CREATE INDEX sessions_by_parent ON sessions (parent_id, created_at) WHERE parent_id IS NOT NULL;
      `);
    },
  },
  {
    // An archived session leaves the default session list and keeps everything else.
    name: "archived sessions",
    up(db) {
      db.exec("ALTER TABLE sessions ADD COLUMN archived_at TEXT");
    },
  },
];

/**
 * Brings the database up to `list.length`. Safe against a second process migrating the same
 * file at the same time: the version is re-read after the write lock is taken.
 */
export function migrate(db: Database, list: readonly Migration[] = migrations): void {
  const version = (): number => db.pragma("user_version", { simple: true }) as number;
  const step = db.transaction((): boolean => {
    const current = version();
    const migration = list[current];
    if (!migration) return false;
    migration.up(db);
    db.pragma(`user_version = ${current + 1}`);
    return true;
  });

  const found = version();
  if (found > list.length) {
    throw new StoreError(
      "schema_too_new",
      `The database is at schema version ${found}, newer than this openinterpreter knows (${list.length}); upgrade openinterpreter.`,
    );
  }
  let more = true;
  while (more) more = step.immediate();
}
