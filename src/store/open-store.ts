import type { Statement } from "better-sqlite3";
import { type EventRow, readEvent, toStoredEvent, unreadable } from "./event-rows.js";
import type { HistoryEvent, StoredEvent } from "./events.js";
import { openDatabase } from "./open-database.js";
import { decodeCursor, encodeCursor, type SessionRow, toSessionRecord } from "./session-rows.js";
import { StoreError } from "./store-error.js";
import type { NewSession, PermissionRule, RuleDecision, SessionPage, SessionPatch, Store } from "./types.js";
import { usageLedger } from "./usage-ledger.js";

export interface OpenStoreOptions {
  /** Database file; its parent directory is created when missing. */
  path: string;
  /** Clock for every stored timestamp (tests inject a fixed one). */
  now?: () => Date;
}

const DEFAULT_PAGE_SIZE = 50;

/** Events read per query by `historyEvents`. */
const HISTORY_PAGE = 500;

/**
 * Opens the state database. Throws a `StoreError` (`wal_unavailable`, `schema_too_new`) when
 * the file cannot be used safely; a corrupt file is quarantined instead (see `recovered`).
 */
export function openStore(options: OpenStoreOptions): Store {
  const now = options.now ?? (() => new Date());
  const { db, recovered } = openDatabase(options.path, now);
  const timestamp = (): string => now().toISOString();

  const sessionColumns =
    "id, cwd, additional_directories, mcp_servers, title, harness, model, mode, created_at, updated_at, parent_id, agent_type, archived_at";
  const insertSession = db.prepare<SessionRow>(
    `INSERT INTO sessions (${sessionColumns}) VALUES (@id, @cwd, @additional_directories, @mcp_servers,
       @title, @harness, @model, @mode, @created_at, @updated_at, @parent_id, @agent_type, @archived_at)`,
  );
  const setArchived = db.prepare<[string | null, string]>("UPDATE sessions SET archived_at = ? WHERE id = ?");
  const selectChildren = db.prepare<[string], SessionRow>(
    `SELECT ${sessionColumns} FROM sessions WHERE parent_id = ? ORDER BY created_at, id`,
  );
  const selectSession = db.prepare<[string], SessionRow>(
    `SELECT ${sessionColumns} FROM sessions WHERE id = ?`,
  );
  const replaceSession = db.prepare<SessionRow>(
    `UPDATE sessions SET cwd = @cwd, additional_directories = @additional_directories, mcp_servers = @mcp_servers,
       title = @title, harness = @harness, model = @model, mode = @mode, created_at = @created_at,
       updated_at = @updated_at WHERE id = @id`,
  );
  const removeSession = db.prepare<[string]>("DELETE FROM sessions WHERE id = ?");
  // substr() rather than LIKE: ids may hold `%` or `_`, and the table is small enough to scan.
  const idsByPrefix = db
    .prepare<[string, string, number], string>(
      "SELECT id FROM sessions WHERE substr(id, 1, length(?)) = ? ORDER BY id LIMIT ?",
    )
    .pluck();
  const touchSession = db.prepare<[string, string]>("UPDATE sessions SET updated_at = ? WHERE id = ?");
  // Keyset pagination: one statement per combination of filters, so each can use its index.
  const listStatements = new Map<string, Statement<ListParams, SessionRow>>();
  const ARCHIVED = { exclude: "archived_at IS NULL", include: undefined, only: "archived_at IS NOT NULL" };
  for (const byCwd of [false, true]) {
    for (const after of [false, true]) {
      for (const [archived, filter] of Object.entries(ARCHIVED)) {
        const where = [
          "parent_id IS NULL",
          filter,
          byCwd ? "cwd = @cwd" : undefined,
          after ? "(updated_at, id) < (@updatedAt, @id)" : undefined,
        ].filter(Boolean);
        const sql = `SELECT ${sessionColumns} FROM sessions WHERE ${where.join(" AND ")}
          ORDER BY updated_at DESC, id DESC LIMIT @limit`;
        listStatements.set(`${byCwd}:${after}:${archived}`, db.prepare<ListParams, SessionRow>(sql));
      }
    }
  }

  // ORDER BY ... LIMIT 1 is one index seek however long the session is.
  const lastSeq = db
    .prepare<[string], number>("SELECT seq FROM events WHERE session_id = ? ORDER BY seq DESC LIMIT 1")
    .pluck();
  const insertEvent = db.prepare<[string, number, string, string, string]>(
    "INSERT INTO events (session_id, seq, at, type, data) VALUES (?, ?, ?, ?, ?)",
  );
  const selectEvents = db.prepare<[string], EventRow>(
    "SELECT seq, at, type, data FROM events WHERE session_id = ? ORDER BY seq",
  );
  // Without the other columns: half the time of whole rows for a long session.
  const selectDataPage = db
    .prepare<[string, number, number], [number, string]>(
      "SELECT seq, data FROM events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    )
    .raw();
  const selectType = db
    .prepare<[string, number], string>("SELECT type FROM events WHERE session_id = ? AND seq = ?")
    .pluck();
  const upsertRule = db.prepare<[string, string, RuleDecision, string]>(
    `INSERT INTO permission_rules (project, key, decision, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project, key) DO UPDATE SET decision = excluded.decision, created_at = excluded.created_at`,
  );
  const selectRules = db.prepare<[string], PermissionRule>(
    `SELECT project, key, decision, created_at AS createdAt FROM permission_rules
     WHERE project = ? ORDER BY key`,
  );

  function* historyEvents(sessionId: string): Generator<HistoryEvent> {
    // A page at a time, each query finished before its rows are handed out: a query left open
    // between steps would make the connection refuse every other statement meanwhile. The
    // first events are parsed and shown while the rest are still on disk.
    for (let after = 0; ; ) {
      const rows = selectDataPage.all(sessionId, after, HISTORY_PAGE);
      for (const [seq, data] of rows) {
        const event = readEvent(data);
        yield typeof event === "string"
          ? unreadable({ seq, type: selectType.get(sessionId, seq) ?? "?" }, event)
          : event;
      }
      if (rows.length < HISTORY_PAGE) return;
      after = rows[rows.length - 1]![0];
    }
  }

  const requireSession = (id: string): SessionRow => {
    const row = selectSession.get(id);
    if (!row) throw new StoreError("session_not_found", `No session ${id}.`);
    return row;
  };

  // Every multi-statement write takes the write lock up front (BEGIN IMMEDIATE): a deferred
  // transaction that reads first can fail with SQLITE_BUSY when another process commits in
  // between, without waiting on busy_timeout.
  const updateTx = db.transaction((id: string, patch: SessionPatch): SessionRow => {
    const current = requireSession(id);
    const next: SessionRow = {
      ...current,
      title: patch.title !== undefined ? patch.title : current.title,
      harness: patch.harness !== undefined ? patch.harness : current.harness,
      model: patch.model !== undefined ? patch.model : current.model,
      mode: patch.mode ?? current.mode,
      additional_directories:
        patch.additionalDirectories !== undefined
          ? JSON.stringify(patch.additionalDirectories)
          : current.additional_directories,
      mcp_servers: patch.mcpServers !== undefined ? JSON.stringify(patch.mcpServers) : current.mcp_servers,
      updated_at: timestamp(),
    };
    replaceSession.run(next);
    return next;
  });

  const appendTx = db.transaction((sessionId: string, events: HistoryEvent[]): number[] => {
    const at = timestamp();
    if (touchSession.run(at, sessionId).changes === 0) {
      throw new StoreError("session_not_found", `No session ${sessionId}.`);
    }
    // Seqs are assigned under the write lock, so two processes appending never collide.
    let seq = lastSeq.get(sessionId) ?? 0;
    return events.map((event) => {
      seq += 1;
      insertEvent.run(sessionId, seq, at, event.type, JSON.stringify(event));
      return seq;
    });
  });

  const createTx = db.transaction((session: NewSession, history: readonly HistoryEvent[]): SessionRow => {
    const at = timestamp();
    const row: SessionRow = {
      id: session.id,
      cwd: session.cwd,
      additional_directories: JSON.stringify(session.additionalDirectories),
      mcp_servers: JSON.stringify(session.mcpServers),
      title: session.title ?? null,
      harness: session.harness ?? null,
      model: session.model ?? null,
      mode: session.mode,
      created_at: at,
      updated_at: at,
      parent_id: session.parentId ?? null,
      agent_type: session.agentType ?? null,
      archived_at: null,
    };
    insertSession.run(row);
    history.forEach((event, index) => {
      insertEvent.run(session.id, index + 1, at, event.type, JSON.stringify(event));
    });
    return row;
  });

  return {
    path: options.path,
    ...(recovered === undefined ? {} : { recovered }),

    createSession(session, history = []) {
      try {
        return toSessionRecord(createTx.immediate(session, history));
      } catch (error) {
        if ((error as { code?: unknown }).code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
          throw new StoreError("session_exists", `Session ${session.id} already exists.`, { cause: error });
        }
        throw error;
      }
    },

    getSession(id) {
      const row = selectSession.get(id);
      return row ? toSessionRecord(row) : undefined;
    },

    listSessions(listOptions = {}): SessionPage {
      const limit = listOptions.limit ?? DEFAULT_PAGE_SIZE;
      if (!Number.isSafeInteger(limit) || limit < 1) {
        throw new StoreError("invalid_limit", `Page size must be a positive integer, got ${limit}.`);
      }
      const after = listOptions.cursor === undefined ? undefined : decodeCursor(listOptions.cursor);
      const archived = listOptions.archived ?? "exclude";
      const statement = listStatements.get(
        `${listOptions.cwd !== undefined}:${after !== undefined}:${archived}`,
      );
      if (!statement) throw new StoreError("invalid_filter", `Unknown archive filter ${archived}.`);
      // One extra row tells whether another page exists without a second query.
      const rows = statement.all({ cwd: listOptions.cwd, ...after, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const sessions = page.map(toSessionRecord);
      return rows.length > limit && last
        ? { sessions, nextCursor: encodeCursor({ updatedAt: last.updated_at, id: last.id }) }
        : { sessions };
    },

    childSessions(parentId) {
      return selectChildren.all(parentId).map(toSessionRecord);
    },

    sessionIdsByPrefix(prefix, limit = 10) {
      return idsByPrefix.all(prefix, prefix, limit);
    },

    integrityCheck() {
      const rows = db.pragma("integrity_check", { simple: false }) as Array<{ integrity_check: string }>;
      return rows.map((row) => row.integrity_check).filter((line) => line !== "ok");
    },

    updateSession(id, patch) {
      return toSessionRecord(updateTx.immediate(id, patch));
    },

    archiveSession(id, archived) {
      if (setArchived.run(archived ? timestamp() : null, id).changes === 0)
        throw new StoreError("session_not_found", `No session ${id}.`);
      return toSessionRecord(requireSession(id));
    },

    deleteSession(id) {
      return removeSession.run(id).changes > 0;
    },

    append(sessionId, events) {
      // Nothing to commit; an empty append must not reorder the session list either.
      if (events.length === 0) {
        requireSession(sessionId);
        return [];
      }
      return appendTx.immediate(sessionId, events);
    },

    events(sessionId): StoredEvent[] {
      return selectEvents.all(sessionId).map(toStoredEvent);
    },

    history(sessionId): HistoryEvent[] {
      return [...historyEvents(sessionId)];
    },

    historyEvents,

    usage: usageLedger(db),

    setRule(rule) {
      upsertRule.run(rule.project, rule.key, rule.decision, timestamp());
    },

    rules(project) {
      return selectRules.all(project);
    },

    sync() {
      // A checkpoint fsyncs the WAL (and the database file) with synchronous=NORMAL. Closing
      // checkpoints too, so a sync that comes after `close` has nothing left to do.
      if (db.open) db.pragma("wal_checkpoint(PASSIVE)");
    },

    close() {
      db.close();
    },
  };
}

interface ListParams {
  cwd?: string | undefined;
  updatedAt?: string;
  id?: string;
  limit: number;
}
