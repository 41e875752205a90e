import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import Database from "better-sqlite3";

type Stored = { type: string; text?: string; callId?: string; status?: string };

export interface StoredSession {
  integrity: string;
  /** Event types in order. */
  types: string[];
  /** The assistant text of every stored part, concatenated. */
  text: string;
  toolCallIds: string[];
  /** Tool results as `callId:status`. */
  results: string[];
}

/** Reads one session's events straight from the daemon's database (read-only, after it exited). */
export function readStoredSession(home: string, sessionId: string): StoredSession {
  const db = new Database(path.join(home, "openinterpreter.db"), { readonly: true });
  try {
    const integrity = String(db.pragma("integrity_check", { simple: true }));
    const rows = db
      .prepare("SELECT type, data FROM events WHERE session_id = ? ORDER BY seq")
      .all(sessionId) as Array<{ type: string; data: string }>;
    const events = rows.map((row): Stored => ({ ...(JSON.parse(row.data) as object), type: row.type }));
    return {
      integrity,
      types: events.map((e) => e.type),
      text: events.map((e) => (e.type === "assistant_message" ? String(e.text ?? "") : "")).join(""),
      toolCallIds: events.filter((e) => e.type === "tool_call").map((e) => String(e.callId)),
      results: events.filter((e) => e.type === "tool_result").map((e) => `${e.callId}:${e.status}`),
    };
  } finally {
    db.close();
  }
}

/** What the editor was shown live: streamed text and tool call ids. */
export function shown(updates: SessionUpdate[]): { text: string; toolCallIds: string[] } {
  return {
    text: updates
      .map((u) =>
        u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
      )
      .join(""),
    toolCallIds: updates.flatMap((u) => (u.sessionUpdate === "tool_call" ? [u.toolCallId] : [])),
  };
}

/** Pids of live processes whose command line contains `marker` (zombies excluded). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      const state = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.[0];
      if (cmdline.includes(marker) && state !== "Z") found.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}
