import type { HistoryEvent, StoredEvent } from "./events.js";
import type { UsageGroup, UsageQuery } from "./usage-ledger.js";

export interface SessionRecord {
  id: string;
  cwd: string;
  additionalDirectories: string[];
  /** ACP `mcpServers` as the editor sent them (stored now, connected by a later layer). */
  mcpServers: unknown[];
  title: string | null;
  harness: string | null;
  model: string | null;
  mode: string;
  createdAt: string;
  updatedAt: string;
  /** The session whose subagent tool call started this one; null for a session the editor opened. */
  parentId: string | null;
  /** A subagent's type in its harness (`Explore`, `coder`, ...); null for a session the editor opened. */
  agentType: string | null;
  /** When the user archived it (it leaves the default list); null when it is not archived. */
  archivedAt: string | null;
}

export type NewSession = Pick<SessionRecord, "id" | "cwd" | "additionalDirectories" | "mcpServers" | "mode"> &
  Partial<Pick<SessionRecord, "title" | "harness" | "model" | "parentId" | "agentType">>;

export type SessionPatch = Partial<
  Pick<SessionRecord, "title" | "harness" | "model" | "mode" | "additionalDirectories" | "mcpServers">
>;

export interface ListSessionsOptions {
  /** Only sessions whose cwd equals this absolute path. */
  cwd?: string;
  /** Opaque cursor from a previous page. */
  cursor?: string;
  /** Page size; default 50. */
  limit?: number;
  /** Archived sessions: left out (default), listed too, or listed alone. */
  archived?: "exclude" | "include" | "only";
}

export interface SessionPage {
  sessions: SessionRecord[];
  nextCursor?: string;
}

export type RuleDecision = "allow" | "deny";

export interface PermissionRule {
  /** Absolute path of the project root the rule applies to. */
  project: string;
  /** What the rule matches, e.g. `exec:npm test` or `edit:*`. */
  key: string;
  decision: RuleDecision;
  createdAt: string;
}

/**
 * The daemon's durable state. Every method is synchronous and each write is one committed
 * transaction by the time it returns (WAL, synchronous=NORMAL: durable against the process
 * dying; `sync()` makes everything so far durable against power loss), so callers may tell the editor
 * about a write as soon as the call returns. Safe to open from two processes on one file.
 */
export interface Store {
  readonly path: string;
  /**
   * Set when the file at `path` was corrupt on open: it (and its -wal/-shm) was moved to this
   * path and a fresh, empty database was created in its place. The caller decides how to tell
   * the user; the store itself logs nothing.
   */
  readonly recovered?: string;
  /**
   * Creates a session, with `history` (a fork's copy) in the same transaction: a crash never
   * leaves a fork that exists without the history it was made with.
   */
  createSession(session: NewSession, history?: readonly HistoryEvent[]): SessionRecord;
  getSession(id: string): SessionRecord | undefined;
  /** Sessions the editor opened (subagents' sessions are listed by `childSessions`), newest first (by updatedAt, then id). */
  listSessions(options?: ListSessionsOptions): SessionPage;
  /** The sessions `parentId`'s subagent calls started, oldest first. */
  childSessions(parentId: string): SessionRecord[];
  /** Ids starting with `prefix`, in id order, at most `limit` (default 10): for `sessions show <prefix>`. */
  sessionIdsByPrefix(prefix: string, limit?: number): string[];
  updateSession(id: string, patch: SessionPatch): SessionRecord;
  /** Archives or unarchives a session (its place in the list by activity stays). */
  archiveSession(id: string, archived: boolean): SessionRecord;
  /** `PRAGMA integrity_check`: the problems SQLite finds, empty when the file is sound. */
  integrityCheck(): string[];
  /** Removes the session and all its events; returns false when it did not exist. */
  deleteSession(id: string): boolean;
  /** Appends events in one transaction, touching the session's updatedAt; returns their seq numbers. */
  append(sessionId: string, events: HistoryEvent[]): number[];
  /** All events of a session in order, each validated on read. */
  events(sessionId: string): StoredEvent[];
  /** The same events without their row numbers and times: what a session keeps (faster). */
  history(sessionId: string): HistoryEvent[];
  /** `history`, parsed as it is iterated (a long session's replay starts before the end is read). */
  historyEvents(sessionId: string): Iterable<HistoryEvent>;
  /** The token ledger across sessions: model requests summed per model, harness or session. */
  usage(query: UsageQuery): UsageGroup[];
  setRule(rule: Omit<PermissionRule, "createdAt">): void;
  rules(project: string): PermissionRule[];
  /** Makes every committed write durable against power loss (fsync); for the end of a turn. A no-op once closed. */
  sync(): void;
  close(): void;
}
