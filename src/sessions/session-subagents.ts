import type { AgentsConfig } from "../config/types.js";
import type { HistoryEvent } from "../store/events.js";
import type { SessionRecord, Store } from "../store/types.js";
import type { SubagentInfo, SubagentPort, SubagentRequest, SubagentUsage } from "../tools/agents/types.js";
import { subagentActivity } from "./subagent-activity.js";
import type { ClientPort, SessionOutput } from "./types.js";

/** The part of a child session the parent drives: one prompt, then close. */
export interface ChildSession {
  readonly id: string;
  attach(client: ClientPort): void;
  prompt(content: [{ type: "text"; text: string }], options: { signal: AbortSignal }): Promise<string>;
  close(): Promise<void>;
}

/** What the session manager offers every session for its subagents (one per daemon). */
export interface SubagentHost {
  limits: AgentsConfig;
  /** Subagents running now across the daemon; the host's, shared by every session. */
  running: { count: number };
  /**
   * Opens a child of `parent` in the store, with the parent's mode, roots, model and harness; or,
   * with `resume`, that child of `parent` again with its history.
   */
  spawn(options: {
    parent: SessionRecord;
    harness: string;
    type: string;
    title: string;
    resume?: string;
  }): ChildSession;
  now(): number;
}

/**
 * One session's subagents (`ToolContext.subagents`): the limits checked, a child session
 * spawned and prompted under the calling turn's signal, its permission questions put to the
 * editor through the parent, what it does shown as the calling tool's progress, and the child
 * closed (its commands killed) before the outcome is returned.
 */
export function sessionSubagents(o: {
  host: SubagentHost;
  store: Store;
  /** Read at each call: the parent's record, active harness and editor may change. */
  parent(): { record: SessionRecord; harness: string; client: ClientPort | undefined };
}): SubagentPort {
  const { host } = o;
  const children = (): SubagentInfo[] =>
    o.store.childSessions(o.parent().record.id).map((c) => ({ sessionId: c.id, type: c.agentType ?? "" }));
  return {
    async run(request, signal) {
      const { record, harness, client } = o.parent();
      const depth = depthOf(o.store, record) + 1;
      if (depth > host.limits.maxDepth) {
        return {
          status: "refused",
          limit: "depth",
          message:
            host.limits.maxDepth === 0
              ? "Subagents are turned off ([agents] max_depth = 0)."
              : `This agent cannot start another subagent: ${depth} levels would exceed [agents] max_depth = ${host.limits.maxDepth}.`,
        };
      }
      if (host.running.count >= host.limits.maxThreads) {
        return {
          status: "refused",
          limit: "threads",
          message: `No subagent was started: ${host.running.count} already running, the most [agents] max_threads = ${host.limits.maxThreads} allows. Wait for them to finish, or do the task yourself.`,
        };
      }
      const { type, description: title, resume } = request;
      if (resume && !children().some((c) => c.sessionId === resume)) {
        const usage = { totalTokens: 0, toolUses: 0, durationMs: 0 };
        return { status: "failed", sessionId: resume, error: `no subagent ${resume} of this session`, usage };
      }
      host.running.count++;
      const started = host.now();
      const child = host.spawn({ parent: record, harness, type, title, ...(resume ? { resume } : {}) });
      try {
        const linked = client?.subagent?.({ sessionId: child.id, title, description: type });
        child.attach(childClient(request, client, linked));
        let error: string | undefined;
        let stop: string;
        try {
          stop = await child.prompt([{ type: "text", text: request.prompt }], { signal });
        } catch (thrown) {
          stop = "failed";
          error = thrown instanceof Error ? thrown.message : String(thrown);
        }
        const cancelled = signal.aborted || stop === "cancelled";
        linked?.ended(
          cancelled
            ? { reason: "cancelled" }
            : error !== undefined
              ? { reason: "error", message: error }
              : { reason: stop === "max_turn_requests" ? stop : "end_turn" },
        );
        // Committed before the editor heard of it: the store has the child's whole turn (the
        // last one, for a resumed child).
        const history = o.store.history(child.id);
        const from = history.findLastIndex((e) => e.type === "user_message");
        const events = history.slice(Math.max(from, 0));
        const usage = usageOf(events, host.now() - started);
        if (cancelled) return { status: "cancelled", sessionId: child.id, usage };
        if (error !== undefined) return { status: "failed", sessionId: child.id, error, usage };
        return { status: "completed", sessionId: child.id, text: finalText(events), usage };
      } finally {
        await child.close();
        host.running.count--;
      }
    },
    children,
  };
}

/**
 * The editor as the child sees it: what the child does becomes the calling tool's progress (and,
 * for an editor that shows subagent sessions, the child session's own updates), and its
 * permission questions go to the editor on the parent's call, the one the editor is showing.
 */
function childClient(
  request: SubagentRequest,
  parent: ClientPort | undefined,
  linked: ClientPort | undefined,
): ClientPort {
  return {
    send(output: SessionOutput) {
      const line = subagentActivity(output);
      if (line) request.onActivity(line);
      linked?.send(output);
    },
    askPermission(question, signal) {
      // Without an editor the question has no one to answer it: refused, as for the parent.
      if (!parent) return Promise.resolve("reject_once");
      return parent.askPermission(
        { ...question, callId: request.callId, title: `${request.description}: ${question.title}` },
        signal,
      );
    },
  };
}

/** How many subagent levels `record` is below a session the editor opened. */
function depthOf(store: Store, record: SessionRecord): number {
  let depth = 0;
  for (let id = record.parentId; id !== null && depth < 64; depth++) {
    id = store.getSession(id)?.parentId ?? null;
  }
  return depth;
}

/** The text of the child's last answer: the assistant text after its last tool call. */
function finalText(events: readonly HistoryEvent[]): string {
  const parts: string[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === "tool_result" || event.type === "tool_call" || event.type === "user_message") break;
    if (event.type === "assistant_message") parts.unshift(event.text);
  }
  return parts.join("").trim();
}

function usageOf(events: readonly HistoryEvent[], durationMs: number): SubagentUsage {
  const last = events.findLast((e) => e.type === "usage" && e.purpose !== "tool");
  return {
    totalTokens: last?.type === "usage" ? last.inputTokens + last.outputTokens : 0,
    toolUses: events.filter((e) => e.type === "tool_call").length,
    durationMs,
  };
}
