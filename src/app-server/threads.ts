import {
  connectLocalClient,
  type LocalClient,
  type LocalSession,
  type PermissionChoice,
  type RequestPermissionRequest,
  type SessionConfigOption,
  type SessionUpdate,
} from "../acp/local-client.js";
import type { RunUsage } from "../acp/run-usage.js";
import type { Logger } from "../config/logger.js";
import type { SessionManager } from "../sessions/session-manager.js";
import type { RpcPeer } from "./json-rpc-lines.js";
import { createTurnItems, type ThreadItem } from "./turn-items.js";

/** One loaded thread: our session, driven through the in-process ACP agent. */
export interface Thread {
  id: string;
  cwd: string;
  createdAt: number;
  client: LocalClient;
  options: SessionConfigOption[];
  /** Turns of this thread that the client may read back (the replayed history is one turn). */
  turns: TurnRecord[];
  running?: Running;
  /** Tokens of this thread's turns run by this process. */
  total: Breakdown;
}

type Breakdown = ReturnType<typeof breakdown>;

function breakdown(u: RunUsage) {
  return {
    inputTokens: u.inputTokens,
    cachedInputTokens: u.cachedInputTokens,
    outputTokens: u.outputTokens,
    reasoningOutputTokens: 0,
    totalTokens: u.inputTokens + u.outputTokens,
  };
}

/** Codex's `ThreadTokenUsage`: this turn's tokens and the thread's running sum. */
function tokenUsage(thread: Thread, usage: RunUsage) {
  const t = thread.total;
  thread.total = breakdown({
    inputTokens: t.inputTokens + usage.inputTokens,
    cachedInputTokens: t.cachedInputTokens + usage.cachedInputTokens,
    outputTokens: t.outputTokens + usage.outputTokens,
  });
  return { last: breakdown(usage), total: thread.total, modelContextWindow: null };
}

export interface TurnRecord {
  id: string;
  items: ThreadItem[];
  status: "completed" | "interrupted" | "failed" | "inProgress";
  error: { message: string } | null;
  startedAt: number | null;
  completedAt: number | null;
  durationMs: number | null;
}

interface Running {
  turn: TurnRecord;
  items: ReturnType<typeof createTurnItems>;
}

export interface ThreadDeps {
  manager: SessionManager;
  logger: Logger;
  version: string;
  peer: RpcPeer;
  now: () => number;
}

/** Opens a thread (new or stored) and routes its ACP updates and approvals to the app-server client. */
export async function openThread(deps: ThreadDeps, open: { cwd: string; resume?: string }): Promise<Thread> {
  let thread: Thread | undefined;
  let replay: ReturnType<typeof createTurnItems> | undefined;
  const client = await connectLocalClient({
    manager: deps.manager,
    logger: deps.logger,
    version: deps.version,
    name: "app-server",
    onUpdate(update: SessionUpdate) {
      if (replay) {
        replay.map(update);
        return;
      }
      const running = thread?.running;
      if (!running) return;
      for (const notice of running.items.map(update)) deps.peer.notify(notice.method, notice.params);
    },
    onPermission: (request, signal) => (thread ? approve(deps, thread, request, signal) : cancelled()),
  });
  const createdAt = Math.floor(deps.now() / 1000);
  let history: ThreadItem[] = [];
  let session: LocalSession;
  if (open.resume) {
    replay = createTurnItems({ threadId: open.resume, turnId: "replay", cwd: open.cwd, now: deps.now });
    session = await client.loadSession(open.resume, open.cwd);
    replay.finish();
    history = replay.items();
    replay = undefined;
  } else {
    session = await client.newSession(open.cwd);
  }
  thread = {
    id: session.sessionId,
    cwd: open.cwd,
    createdAt,
    client,
    options: session.configOptions,
    turns: history.length > 0 ? [doneTurn(`${session.sessionId}-history`, history)] : [],
    total: breakdown(NO_TOKENS),
  };
  return thread;
}

/** Starts a turn: answers at once with the turn in progress; items and `turn/completed` follow. */
export function startTurn(deps: ThreadDeps, thread: Thread, text: string): TurnRecord {
  if (thread.running) throw new Error("a turn is already running on this thread");
  const turn: TurnRecord = {
    id: `turn_${thread.turns.length}_${deps.now().toString(36)}`,
    items: [],
    status: "inProgress",
    error: null,
    startedAt: Math.floor(deps.now() / 1000),
    completedAt: null,
    durationMs: null,
  };
  const items = createTurnItems({ threadId: thread.id, turnId: turn.id, cwd: thread.cwd, now: deps.now });
  thread.running = { turn, items };
  thread.turns.push(turn);
  const began = deps.now();
  const notify = (method: string, params: Record<string, unknown>) => deps.peer.notify(method, params);
  queueMicrotask(() => {
    notify("thread/status/changed", { threadId: thread.id, status: { type: "active", activeFlags: [] } });
    notify("turn/started", { threadId: thread.id, turn: { ...turn, items: [] } });
    thread.client.promptTurn(text).then(
      ({ stopReason: stop, usage }) => {
        if (usage)
          notify("thread/tokenUsage/updated", {
            threadId: thread.id,
            turnId: turn.id,
            tokenUsage: tokenUsage(thread, usage),
          });
        end(stop === "cancelled" ? "interrupted" : stop === "end_turn" ? "completed" : "failed", stop);
      },
      (error: unknown) => end("failed", error instanceof Error ? error.message : String(error)),
    );
  });
  const end = (status: TurnRecord["status"], why: string) => {
    for (const notice of items.finish()) notify(notice.method, notice.params);
    turn.items = items.items();
    turn.status = status;
    turn.error = status === "failed" ? { message: why } : null;
    turn.completedAt = Math.floor(deps.now() / 1000);
    turn.durationMs = deps.now() - began;
    thread.running = undefined;
    notify("turn/completed", { threadId: thread.id, turn });
    notify("thread/status/changed", { threadId: thread.id, status: { type: "idle" } });
  };
  return turn;
}

/**
 * ACP's permission question as Codex's approval request: commands ask
 * `item/commandExecution/requestApproval`, edits `item/fileChange/requestApproval`. Codex's
 * decisions map onto our options: accept = once, acceptForSession = always, decline = reject.
 */
async function approve(
  deps: ThreadDeps,
  thread: Thread,
  request: RequestPermissionRequest,
  signal: AbortSignal,
): Promise<PermissionChoice> {
  const running = thread.running;
  if (!running) return "cancelled";
  const call = running.items.call(request.toolCall.toolCallId);
  const base = {
    threadId: thread.id,
    turnId: running.turn.id,
    itemId: call?.itemId ?? request.toolCall.toolCallId,
    startedAtMs: deps.now(),
    reason: request.toolCall.title ?? null,
  };
  const isFile = call?.item.type === "fileChange";
  const answer = isFile
    ? deps.peer.request("item/fileChange/requestApproval", { ...base, grantRoot: null })
    : deps.peer.request("item/commandExecution/requestApproval", {
        ...base,
        command:
          typeof call?.item.command === "string" ? call.item.command : (request.toolCall.title ?? null),
        cwd: thread.cwd,
        commandActions: [],
      });
  const decision = await Promise.race([
    answer.then((r) => (r as { decision?: unknown }).decision).catch(() => "cancel"),
    new Promise<string>((resolve) =>
      signal.addEventListener("abort", () => resolve("cancel"), { once: true }),
    ),
  ]);
  const offered = new Set(request.options.map((o) => o.optionId));
  const pick = (id: string): PermissionChoice => (offered.has(id) ? { optionId: id } : "cancelled");
  if (decision === "accept") return pick("allow_once");
  if (decision === "acceptForSession")
    return offered.has("allow_always") ? pick("allow_always") : pick("allow_once");
  if (decision === "decline") return pick("reject_once");
  return "cancelled";
}

function doneTurn(id: string, items: ThreadItem[]): TurnRecord {
  return {
    id,
    items,
    status: "completed",
    error: null,
    startedAt: null,
    completedAt: null,
    durationMs: null,
  };
}

const NO_TOKENS: RunUsage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 };

const cancelled = async (): Promise<PermissionChoice> => "cancelled";
