import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryEvent, HistoryEventOf } from "../src/store/events.js";
import { type Migration, migrate, migrations } from "../src/store/migrations.js";
import { openDatabase } from "../src/store/open-database.js";
import { openStore } from "../src/store/open-store.js";
import type { NewSession, Store } from "../src/store/types.js";

let dir: string;
const opened: Store[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "oi-store-"));
});
afterEach(() => {
  for (const store of opened.splice(0)) {
    try {
      store.close();
    } catch {
      // already closed by the test
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A clock that advances one second per reading, so every write has a distinct, known time. */
function steppingClock(start = Date.parse("2025-01-01T00:00:00.000Z")): () => Date {
  let tick = 0;
  return () => new Date(start + 1000 * tick++);
}

function open(options: { path?: string; now?: () => Date } = {}): Store {
  const store = openStore({
    path: options.path ?? join(dir, "state", "db.sqlite"),
    now: options.now ?? steppingClock(),
  });
  opened.push(store);
  return store;
}

function session(id: string, extra: Partial<NewSession> = {}): NewSession {
  return { id, cwd: "/p/one", additionalDirectories: [], mcpServers: [], mode: "workspace-write", ...extra };
}

function raw(path: string): Database.Database {
  return new Database(path);
}

const code = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  throw new Error("expected a throw");
};

/** One sample of every HistoryEvent variant; the mapped type makes a new variant a compile error here. */
const samples: { [K in HistoryEvent["type"]]: HistoryEventOf<K> } = {
  turn_started: { type: "turn_started", turnId: "t1", pid: 4242 },
  turn_ended: { type: "turn_ended", turnId: "t1", stopReason: null, error: "provider said 500" },
  user_message: {
    type: "user_message",
    turnId: "t1",
    content: [
      { type: "text", text: "héllo ✓" },
      { type: "resource_link", uri: "file:///a.ts", name: "a.ts" },
    ],
  },
  assistant_message: { type: "assistant_message", turnId: "t1", step: 0, text: "ok", reasoning: "think" },
  tool_call: {
    type: "tool_call",
    turnId: "t1",
    step: 0,
    callId: "c1",
    name: "shell",
    harness: "codex",
    capability: "exec",
    arguments: '{"command":["ls","-la"]}',
    title: "ls -la",
    kind: "execute",
    locations: [{ path: "/p/one", line: 3 }],
    display: [{ type: "diff", path: "/p/one/a.ts", oldText: "a", newText: "b" }],
  },
  tool_result: {
    type: "tool_result",
    turnId: "t1",
    callId: "c1",
    status: "completed",
    output: "a.ts\n",
    display: [
      { type: "text", text: "a.ts" },
      { type: "diff", path: "/p/one/a.ts", oldText: null, newText: "x" },
    ],
  },
  format_error: { type: "format_error", turnId: "t1", step: 2, text: "reply with one bash block" },
  compaction: { type: "compaction", summary: "Fixed the tests; next: docs.", replaced: 12 },
  plan: {
    type: "plan",
    turnId: "t1",
    entries: [{ content: "step", status: "in_progress", priority: "high" }],
  },
  harness_changed: { type: "harness_changed", harness: "claude-code", reason: "/harness" },
  model_changed: { type: "model_changed", model: "qwen3-coder" },
  mode_changed: { type: "mode_changed", mode: "auto" },
  background_ended: {
    type: "background_ended",
    id: "b96db3c",
    harness: "claude-code",
    command: "sleep 2; echo bg-done",
    description: "Background sleep",
    cwd: "/p/one",
    status: "completed",
    exitCode: 0,
    pid: 4243,
    outputFile: "/tmp/scratch/tasks/b96db3c.output",
    outputBytes: 8,
    outputTail: "bg-done\n",
    durationMs: 2010,
  },
  usage: {
    type: "usage",
    turnId: "t1",
    inputTokens: 10,
    outputTokens: 5,
    cachedInputTokens: 2,
    reasoningTokens: 1,
    contextUsed: 15,
    contextSize: 128000,
  },
  notice: { type: "notice", severity: "warning", text: "careful" },
};

describe("sessions", () => {
  it("creates the parent directory and round-trips a session", () => {
    const store = open({ path: join(dir, "a", "b", "c.db") });
    expect(statSync(join(dir, "a", "b")).isDirectory()).toBe(true);
    const created = store.createSession(
      session("s1", {
        additionalDirectories: ["/p/lib"],
        mcpServers: [{ name: "fs", command: "mcp-fs" }],
        title: "T",
      }),
    );
    expect(created).toEqual({
      id: "s1",
      cwd: "/p/one",
      additionalDirectories: ["/p/lib"],
      mcpServers: [{ name: "fs", command: "mcp-fs" }],
      title: "T",
      harness: null,
      model: null,
      mode: "workspace-write",
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-01T00:00:00.000Z",
      parentId: null,
      agentType: null,
      archivedAt: null,
    });
    expect(store.getSession("s1")).toEqual(created);
    expect(store.getSession("nope")).toBeUndefined();
    expect(store.recovered).toBeUndefined();
  });

  it("keeps a subagent's session under its parent: not listed at the top, deleted with it", () => {
    const store = open();
    store.createSession(session("parent"));
    store.createSession(session("child", { parentId: "parent", title: "Find tests" }));
    expect(store.listSessions().sessions.map((s) => s.id)).toEqual(["parent"]);
    expect(store.childSessions("parent").map((s) => [s.id, s.parentId, s.title])).toEqual([
      ["child", "parent", "Find tests"],
    ]);
    store.append("child", [{ type: "notice", severity: "info", text: "hi" }]);
    expect(store.deleteSession("parent")).toBe(true);
    expect(store.getSession("child")).toBeUndefined();
    expect(store.history("child")).toEqual([]);
  });

  it("refuses a duplicate id with a stable code", () => {
    const store = open();
    store.createSession(session("s1"));
    expect(code(() => store.createSession(session("s1")))).toBe("session_exists");
  });

  it("creates a session with its history in one transaction: all of it or nothing", () => {
    const store = open();
    const copied: HistoryEvent[] = [
      { type: "notice", severity: "info", text: "one" },
      { type: "notice", severity: "info", text: "two" },
    ];
    store.createSession(session("fork"), copied);
    expect(store.events("fork").map((event) => event.seq)).toEqual([1, 2]);
    expect(store.history("fork")).toEqual(copied);
    store.append("fork", [{ type: "notice", severity: "info", text: "three" }]);
    expect(store.events("fork").map((event) => event.seq)).toEqual([1, 2, 3]);

    // An event that cannot be written (a BigInt has no JSON form) undoes the session's row too.
    const unwritable = { type: "notice", severity: "info", text: "x", n: 1n } as unknown as HistoryEvent;
    expect(() => store.createSession(session("half"), [copied[0]!, unwritable])).toThrow(TypeError);
    expect(store.getSession("half")).toBeUndefined();
    expect(store.history("half")).toEqual([]);
  });

  it("updates only the patched fields and bumps updatedAt", () => {
    const store = open();
    store.createSession(session("s1", { title: "old", model: "m1" }));
    const updated = store.updateSession("s1", {
      title: null,
      harness: "codex",
      additionalDirectories: ["/x"],
    });
    expect(updated).toMatchObject({
      title: null,
      harness: "codex",
      model: "m1",
      additionalDirectories: ["/x"],
    });
    expect(updated.updatedAt).toBe("2025-01-01T00:00:01.000Z");
    expect(updated.createdAt).toBe("2025-01-01T00:00:00.000Z");
    expect(store.getSession("s1")).toEqual(updated);
    expect(code(() => store.updateSession("nope", { title: "x" }))).toBe("session_not_found");
  });

  it("lists newest first by updatedAt, then id, and an append moves a session to the top", () => {
    const store = open({ now: () => new Date("2025-01-01T00:00:00.000Z") });
    for (const id of ["a", "c", "b"]) store.createSession(session(id));
    expect(store.listSessions().sessions.map((s) => s.id)).toEqual(["c", "b", "a"]);

    const later = open({ path: store.path, now: () => new Date("2025-01-02T00:00:00.000Z") });
    later.append("a", [samples.notice]);
    expect(store.listSessions().sessions.map((s) => s.id)).toEqual(["a", "c", "b"]);
  });

  it("pages with an opaque cursor, with and without a cwd filter", () => {
    const store = open();
    for (let i = 0; i < 7; i++) store.createSession(session(`s${i}`, { cwd: i % 2 ? "/odd" : "/even" }));

    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const page = store.listSessions({ limit: 3, ...(cursor ? { cursor } : {}) });
      sizes.push(page.sessions.length);
      seen.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual(["s6", "s5", "s4", "s3", "s2", "s1", "s0"]);

    const even = store.listSessions({ cwd: "/even", limit: 2 });
    expect(even.sessions.map((s) => s.id)).toEqual(["s6", "s4"]);
    const rest = store.listSessions({ cwd: "/even", limit: 2, cursor: even.nextCursor! });
    expect(rest.sessions.map((s) => s.id)).toEqual(["s2", "s0"]);
    expect(rest.nextCursor).toBeUndefined();
    expect(store.listSessions({ cwd: "/nowhere" })).toEqual({ sessions: [] });
    expect(store.listSessions({ cwd: "/odd" }).sessions).toHaveLength(3);
    expect(store.listSessions().nextCursor).toBeUndefined();
  });

  it("rejects a cursor it did not issue and a bad limit", () => {
    const store = open();
    const b64 = (s: string) => Buffer.from(s).toString("base64url");
    for (const cursor of ["!!!", b64("not json"), b64('{"a":1}'), b64("[1,2]"), ""]) {
      expect(code(() => store.listSessions({ cursor }))).toBe("invalid_cursor");
    }
    expect(code(() => store.listSessions({ limit: 0 }))).toBe("invalid_limit");
  });

  it("deletes a session with its events and reports whether it existed", () => {
    const store = open();
    store.createSession(session("gone"));
    store.createSession(session("kept"));
    store.append("gone", [samples.notice, samples.plan]);
    store.append("kept", [samples.notice]);
    expect(store.deleteSession("gone")).toBe(true);
    expect(store.deleteSession("gone")).toBe(false);
    expect(store.getSession("gone")).toBeUndefined();
    expect(store.events("kept")).toHaveLength(1);
    const db = raw(store.path);
    expect(db.prepare("SELECT count(*) AS n FROM events WHERE session_id = 'gone'").get()).toEqual({ n: 0 });
    db.close();
  });
});

describe("events", () => {
  it("round-trips every HistoryEvent variant in order", () => {
    const store = open();
    store.createSession(session("s1"));
    const all = Object.values(samples) as HistoryEvent[];
    expect(store.append("s1", all.slice(0, 5))).toEqual([1, 2, 3, 4, 5]);
    expect(store.append("s1", all.slice(5))).toEqual(all.slice(5).map((_, i) => i + 6));
    const stored = store.events("s1");
    expect(stored.map((e) => e.event)).toEqual(all);
    expect(stored.map((e) => e.seq)).toEqual(all.map((_, i) => i + 1));
    expect(stored[0]?.at).toBe("2025-01-01T00:00:01.000Z");
    expect(store.getSession("s1")?.updatedAt).toBe("2025-01-01T00:00:02.000Z");
    expect(store.events("nobody")).toEqual([]);
  });

  it("refuses to append to a missing session and writes nothing", () => {
    const store = open();
    expect(code(() => store.append("ghost", [samples.notice]))).toBe("session_not_found");
    expect(code(() => store.append("ghost", []))).toBe("session_not_found");
    const db = raw(store.path);
    expect(db.prepare("SELECT count(*) AS n FROM events").get()).toEqual({ n: 0 });
    db.close();
  });

  it("commits a batch all or nothing", () => {
    const store = open();
    const before = store.createSession(session("s1"));
    const poison = { type: "notice", severity: "info", text: 1n } as unknown as HistoryEvent;
    expect(() => store.append("s1", [samples.notice, poison])).toThrow();
    expect(store.events("s1")).toEqual([]);
    expect(store.getSession("s1")?.updatedAt).toBe(before.updatedAt);
    expect(store.append("s1", [samples.notice])).toEqual([1]);
  });

  it("surfaces an unreadable row as an error notice at its seq instead of failing", () => {
    const store = open();
    store.createSession(session("s1"));
    store.append("s1", [samples.model_changed]);
    const db = raw(store.path);
    const insert = db.prepare(
      "INSERT INTO events (session_id, seq, at, type, data) VALUES ('s1', ?, 'x', ?, ?)",
    );
    insert.run(2, "plan", JSON.stringify({ type: "plan", turnId: "t", entries: [{ content: 1 }] }));
    insert.run(3, "usage", "{not json");
    db.close();
    store.append("s1", [samples.mode_changed]);

    const stored = store.events("s1");
    expect(stored.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(stored[0]?.event).toEqual(samples.model_changed);
    expect(stored[3]?.event).toEqual(samples.mode_changed);
    for (const [index, seq] of [
      [1, 2],
      [2, 3],
    ] as const) {
      const event = stored[index]?.event;
      expect(event).toMatchObject({ type: "notice", severity: "error" });
      expect(event?.type === "notice" && event.text).toContain(`#${seq}`);
    }
    // What a session keeps: the same events, notices included.
    expect(store.history("s1")).toEqual(stored.map((e) => e.event));
  });

  it("reads a long history in order, across the pages it is read in", () => {
    const store = open();
    store.createSession(session("s1"));
    const texts = Array.from({ length: 1_234 }, (_, i) => `note ${i}`);
    store.append(
      "s1",
      texts.map((text) => ({ type: "notice", severity: "info", text })),
    );
    const history = store.history("s1");
    expect(history.map((e) => (e.type === "notice" ? e.text : e.type))).toEqual(texts);
    expect(history).toEqual(store.events("s1").map((e) => e.event));
  });
});

describe("permission rules", () => {
  it("upserts by (project, key) and keeps projects apart", () => {
    const store = open();
    store.setRule({ project: "/p/one", key: "exec:npm test", decision: "allow" });
    store.setRule({ project: "/p/one", key: "edit:*", decision: "deny" });
    store.setRule({ project: "/p/two", key: "exec:npm test", decision: "deny" });
    store.setRule({ project: "/p/one", key: "exec:npm test", decision: "deny" });
    expect(store.rules("/p/one")).toEqual([
      { project: "/p/one", key: "edit:*", decision: "deny", createdAt: "2025-01-01T00:00:01.000Z" },
      { project: "/p/one", key: "exec:npm test", decision: "deny", createdAt: "2025-01-01T00:00:03.000Z" },
    ]);
    expect(store.rules("/p/two")).toHaveLength(1);
    expect(store.rules("/p/none")).toEqual([]);
  });
});

describe("durability and schema", () => {
  it("keeps everything across close and reopen, at the latest schema version, in WAL mode", () => {
    const first = open();
    first.createSession(session("s1"));
    first.append("s1", [samples.user_message, samples.tool_call]);
    first.setRule({ project: "/p/one", key: "edit:*", decision: "allow" });
    first.close();

    const second = open({ path: first.path });
    expect(second.getSession("s1")?.id).toBe("s1");
    expect(second.events("s1").map((e) => e.event)).toEqual([samples.user_message, samples.tool_call]);
    expect(second.rules("/p/one")).toHaveLength(1);
    second.close();

    const db = raw(first.path);
    expect(db.pragma("user_version", { simple: true })).toBe(migrations.length);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("commits with synchronous=NORMAL whether the file was new or not (a new one is created unsynced)", () => {
    const path = join(dir, "sync.db");
    for (const round of ["new", "existing"]) {
      const { db } = openDatabase(path, () => new Date());
      expect([round, db.pragma("synchronous", { simple: true })]).toEqual([round, 1]);
      expect(db.pragma("user_version", { simple: true })).toBe(migrations.length);
      db.close();
    }
  });

  it("sync checkpoints the WAL into the database file; after close it does nothing", () => {
    const path = join(dir, "checkpoint.db");
    const store = open({ path });
    store.createSession(session("s1"));
    store.append("s1", [samples.user_message]);
    const before = statSync(path).size;
    store.sync();
    expect(statSync(path).size).toBeGreaterThan(before);
    store.close();
    expect(() => store.sync()).not.toThrow();
  });

  it("upgrades an empty file (version 0)", () => {
    const path = join(dir, "empty.db");
    writeFileSync(path, "");
    const store = open({ path });
    store.createSession(session("s1"));
    expect(store.listSessions().sessions).toHaveLength(1);
    expect(store.recovered).toBeUndefined();
  });

  it("upgrades a database left at the previous schema version", () => {
    const path = join(dir, "previous.db");
    const db = raw(path);
    migrate(db, migrations.slice(0, -1));
    expect(db.pragma("user_version", { simple: true })).toBe(migrations.length - 1);
    db.close();
    const store = open({ path });
    store.createSession(session("s1"));
    store.close();
    const check = raw(path);
    expect(check.pragma("user_version", { simple: true })).toBe(migrations.length);
    check.close();
  });

  it("rolls back a failed migration so it re-runs cleanly", () => {
    const db = raw(join(dir, "m.db"));
    const first: Migration = { name: "one", up: (d) => d.exec("CREATE TABLE one (x)") };
    const broken: Migration = {
      name: "two",
      up: (d) => {
        d.exec("CREATE TABLE two (x)");
        throw new Error("power cut");
      },
    };
    expect(() => migrate(db, [first, broken])).toThrow("power cut");
    expect(db.pragma("user_version", { simple: true })).toBe(1);
    const tables = () =>
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables()).toEqual(["one"]);
    migrate(db, [first, { name: "two", up: (d) => d.exec("CREATE TABLE two (x)") }]);
    expect(db.pragma("user_version", { simple: true })).toBe(2);
    expect(tables()).toEqual(["one", "two"]);
    db.close();
  });

  it("refuses a database from a newer version without touching it", () => {
    const path = join(dir, "new.db");
    const db = raw(path);
    db.pragma(`user_version = ${migrations.length + 1}`);
    db.close();
    expect(code(() => open({ path }))).toBe("schema_too_new");
    const check = raw(path);
    expect(check.pragma("user_version", { simple: true })).toBe(migrations.length + 1);
    check.close();
  });

  it("fails clearly when WAL cannot be enabled", () => {
    expect(() => openStore({ path: ":memory:" })).toThrow(/WAL/);
    expect(code(() => openStore({ path: ":memory:" }))).toBe("wal_unavailable");
  });
});

describe("corruption", () => {
  function seeded(path: string): void {
    const store = open({ path });
    for (let i = 0; i < 40; i++) {
      store.createSession(session(`s${i}`));
      store.append(`s${i}`, [{ ...samples.tool_result, output: "x".repeat(2000) }]);
    }
    store.close();
  }

  it("quarantines a file overwritten with garbage and starts fresh", () => {
    const path = join(dir, "db.sqlite");
    seeded(path);
    const garbage = Buffer.alloc(statSync(path).size, 0x5a);
    writeFileSync(path, garbage);

    const store = open({ path, now: () => new Date("2025-03-04T05:06:07.089Z") });
    expect(store.recovered).toBe(`${path}.corrupt-2025-03-04T05-06-07-089Z`);
    expect(readFileSync(store.recovered!).equals(garbage)).toBe(true);
    expect(store.listSessions().sessions).toEqual([]);
    store.createSession(session("fresh"));
    expect(store.getSession("fresh")).toBeDefined();
  });

  function damagePages(path: string): void {
    const bytes = readFileSync(path);
    const pageSize = bytes.readUInt16BE(16);
    bytes.fill(0xa5, pageSize, bytes.length - pageSize);
    writeFileSync(path, bytes);
  }

  it("after an unclean shutdown, quarantines a file whose pages past the header are damaged", () => {
    const path = join(dir, "db.sqlite");
    seeded(path);
    damagePages(path);
    // A crashed daemon leaves its -wal behind (a clean close deletes it).
    writeFileSync(`${path}-wal`, "");

    const store = open({ path });
    expect(store.recovered).toMatch(/\.corrupt-/);
    expect(store.listSessions().sessions).toEqual([]);
  });

  it("does not scan a cleanly closed database on open (the check reads every page)", () => {
    const path = join(dir, "db.sqlite");
    seeded(path);
    damagePages(path);

    const store = open({ path });
    expect(store.recovered).toBeUndefined();
    store.close();
  });
});
