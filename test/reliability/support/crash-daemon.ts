/**
 * A daemon under test for the crash and load suites: `bin/interpreter.js acp` spawned as a
 * subprocess (every line schema-checked by spawnAgent), driven by the official SDK client,
 * with every `session/update` recorded in arrival order, and a `kill -9` that also accounts
 * for the daemon's child processes.
 */
import { readFileSync, readlinkSync } from "node:fs";
import {
  type ClientConnection,
  client,
  methods,
  type SessionNotification,
  type SessionUpdate,
} from "@agentclientprotocol/sdk/unstable";
import Database from "better-sqlite3";
import { readProc, readProcTable } from "../../../src/tools/exec/proc-table.js";
import { type AgentProcess, spawnAgent } from "../../support/spawn-agent.js";
import { INIT } from "../../support/test-client.js";

export interface Daemon {
  agent: AgentProcess;
  connection: ClientConnection;
  /** Every update received, per session, in arrival order. */
  updates(sessionId: string): SessionUpdate[];
  /** Permission requests the daemon sent (the client answers allow once). */
  permissions: number;
  /** Called after each update is recorded. */
  onUpdate?: (notification: SessionNotification) => void;
  /**
   * SIGKILL, then waits until the client has read everything the daemon wrote. Returns the
   * daemon's processes (by pid) that were still alive shortly after its death; they are killed.
   */
  kill9(options: { childCwdPrefix: string }): Promise<{ survivors: Survivor[] }>;
  /** Closes stdin (the editor going away) and resolves with the exit status. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startDaemon(options: {
  home: string;
  modelUrl: string;
  env?: Record<string, string>;
}): Promise<Daemon> {
  const agent = spawnAgent({
    home: options.home,
    env: { OPENAI_BASE_URL: options.modelUrl, OPENAI_API_KEY: "sk-reliability", ...options.env },
    args: ["-m", "mock-model"],
  });
  const bySession = new Map<string, SessionUpdate[]>();
  const daemon: Daemon = {
    agent,
    connection: undefined as unknown as ClientConnection,
    permissions: 0,
    updates: (sessionId) => bySession.get(sessionId) ?? [],
    kill9: (kill) => kill9(daemon, kill.childCwdPrefix),
    async close() {
      agent.child.stdin!.end();
      const exit = await agent.exited;
      await daemon.connection.closed;
      return exit;
    },
  };
  const app = client({ name: "reliability-editor" })
    .onNotification(methods.client.session.update, ({ params }) => {
      const list = bySession.get(params.sessionId) ?? [];
      if (list.length === 0) bySession.set(params.sessionId, list);
      list.push(params.update);
      daemon.onUpdate?.(params);
    })
    .onRequest(methods.client.session.requestPermission, () => {
      daemon.permissions++;
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    });
  daemon.connection = app.connect(agent.stream);
  await daemon.connection.agent.request(methods.agent.initialize, INIT);
  return daemon;
}

/** `/proc/<pid>/stat` start times are in clock ticks since boot (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;

/** A process of the daemon's that was still running after the daemon died. */
export interface Survivor {
  pid: number;
  command: string;
  /** How long it had been running when the kill landed; absent when it started afterwards. */
  ageMs?: number;
}

async function kill9(daemon: Daemon, childCwdPrefix: string): Promise<{ survivors: Survivor[] }> {
  const pid = daemon.agent.child.pid!;
  const before = descendants(pid);
  const uptimeTicks = Math.floor(Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * CLOCK_TICKS);
  daemon.agent.child.kill("SIGKILL");
  await daemon.agent.exited;
  // Everything the daemon wrote before it died is still in the pipe: the client reads it all
  // before the connection reports closed, and those updates count as received.
  await Promise.race([daemon.connection.closed, delay(5_000)]);
  // bubblewrap's --die-with-parent takes the sandboxed commands down with the daemon; give the
  // kernel a moment to deliver that, then look for anything of the daemon's still running.
  const alive = (): Map<number, string> => {
    const found = new Map<number, string>();
    for (const [child, start] of before) {
      const entry = readProc(child);
      // A zombie has exited; reaping it is up to whoever inherited it (init here).
      if (entry?.startTime === start && !entry.zombie) found.set(child, start);
    }
    for (const entry of readProcTable()) {
      if (entry.zombie || entry.pid === process.pid) continue;
      if (cwdOf(entry.pid)?.startsWith(childCwdPrefix)) found.set(entry.pid, entry.startTime);
    }
    return found;
  };
  let left = alive();
  for (let i = 0; i < 20 && left.size > 0; i++) {
    await delay(10);
    left = alive();
  }
  const killedAt = uptimeTicks;
  const survivors = [...left].map(([p, start]): Survivor => {
    const known = before.get(p) === start;
    return {
      pid: p,
      command: commandOf(p),
      ...(known ? { ageMs: ((killedAt - Number(start)) * 1000) / CLOCK_TICKS } : {}),
    };
  });
  for (const survivor of left.keys()) {
    try {
      process.kill(survivor, "SIGKILL");
    } catch {
      // Gone in between.
    }
  }
  return { survivors };
}

/** Descendants of `pid` (pid → start time), from one walk of /proc. */
function descendants(pid: number): Map<number, string> {
  const table = readProcTable();
  const children = new Map<number, number[]>();
  for (const entry of table) children.set(entry.ppid, [...(children.get(entry.ppid) ?? []), entry.pid]);
  const start = new Map(table.map((e) => [e.pid, e.startTime]));
  const found = new Map<number, string>();
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.pop()!;
    found.set(next, start.get(next)!);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

function cwdOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
  } catch {
    return "?";
  }
}

/**
 * The updates that show stored history, i.e. what `session/load` must replay. Live-only
 * updates are dropped: a tool starting (`in_progress`), streamed command output (an update
 * without status), title, commands, options and mode announcements. A call's result (the
 * update with `rawOutput`) is folded into the call, where the editor shows it and where
 * `session/load` sends it: one finished `tool_call`.
 */
export function durable(updates: SessionUpdate[]): SessionUpdate[] {
  const folded: SessionUpdate[] = [];
  const calls = new Map<string, number>();
  for (const update of shown(updates)) {
    if (update.sessionUpdate === "tool_call" && update.status === "pending") {
      calls.set(update.toolCallId, folded.length);
    } else if (update.sessionUpdate === "tool_call_update" && update.rawOutput !== undefined) {
      const at = calls.get(update.toolCallId);
      if (at !== undefined) {
        calls.delete(update.toolCallId);
        const { sessionUpdate: _, toolCallId: __, ...result } = update;
        folded[at] = { ...folded[at]!, ...result } as SessionUpdate;
        continue;
      }
    }
    folded.push(update);
  }
  return folded;
}

function shown(updates: SessionUpdate[]): SessionUpdate[] {
  return updates.filter((u) => {
    switch (u.sessionUpdate) {
      case "tool_call_update":
        return u.status === "completed" || u.status === "failed";
      case "session_info_update":
      case "available_commands_update":
      case "config_option_update":
      case "current_mode_update":
        return false;
      default:
        return true;
    }
  });
}

/** `PRAGMA integrity_check` of a database file no daemon has open. */
export function integrityCheck(path: string): string {
  const db = new Database(path);
  try {
    return String(db.pragma("integrity_check", { simple: true }));
  } finally {
    db.close();
  }
}

/** Small, seedable and good enough to spread kill moments: mulberry32. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of agent message chunks, concatenated. */
export function agentText(updates: SessionUpdate[]): string {
  return updates
    .map((u) =>
      u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? u.content.text : "",
    )
    .join("");
}
