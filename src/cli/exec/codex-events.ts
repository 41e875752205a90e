import type { RunDiff, RunEvent, RunUsage } from "../../acp/run-once.js";
import { commandOf, exitCodeOf, mcpNames } from "../../acp/tool-facts.js";

/**
 * The JSONL events of `codex exec --experimental-json` (codex-rs/exec/src/exec_events.rs,
 * typed as `ThreadEvent` in @openai/codex-sdk). Field names are Codex's, snake_case.
 */
export type CodexItem =
  | { id: string; type: "agent_message"; text: string }
  | { id: string; type: "reasoning"; text: string }
  | {
      id: string;
      type: "command_execution";
      command: string;
      aggregated_output: string;
      /** null while running (Codex serializes the unset Option as null). */
      exit_code: number | null;
      status: "in_progress" | "completed" | "failed";
    }
  | {
      id: string;
      type: "file_change";
      changes: Array<{ path: string; kind: "add" | "delete" | "update" }>;
      status: "completed" | "failed";
    }
  | {
      id: string;
      type: "mcp_tool_call";
      server: string;
      tool: string;
      arguments: unknown;
      result: { content: Array<{ type: "text"; text: string }>; structured_content: null } | null;
      error: { message: string } | null;
      status: "in_progress" | "completed" | "failed";
    }
  | { id: string; type: "todo_list"; items: Array<{ text: string; completed: boolean }> }
  | { id: string; type: "error"; message: string };

export type CodexEvent =
  | { type: "thread.started"; thread_id: string }
  | { type: "turn.started" }
  | { type: "item.started" | "item.updated" | "item.completed"; item: CodexItem }
  | {
      type: "turn.completed";
      usage: { input_tokens: number; cached_input_tokens: number; output_tokens: number };
    }
  | { type: "turn.failed"; error: { message: string } }
  | { type: "error"; message: string };

/** How the turn ended: a stop reason from the agent, or the error that ended it. */
export type TurnOutcome = { stopReason: string; usage?: RunUsage } | { error: string };

/** Tools outside Codex's vocabulary (reads, searches, ...) show as MCP calls of this server. */
export const BUILTIN_SERVER = "interpreter";

type Open =
  | { kind: "command"; item: Extract<CodexItem, { type: "command_execution" }>; rejected: boolean }
  | { kind: "file"; id: string; toolKind: string; paths: string[]; diffs: RunDiff[] }
  | { kind: "mcp"; item: Extract<CodexItem, { type: "mcp_tool_call" }> };

/**
 * Turns run events into Codex events, in Codex's order: messages and reasoning only as
 * `item.completed`, commands and MCP calls as started + completed, file changes once when
 * applied, the plan as a `todo_list` started / updated / completed at the end of the turn.
 * Pure: no I/O; one mapper per turn, ids `item_0`, `item_1`, ... as in Codex.
 */
export function createCodexMapper() {
  let next = 0;
  const newId = () => `item_${next++}`;
  let text = "";
  let thought = "";
  let finalMessage: string | undefined;
  let todo: { id: string; items: Array<{ text: string; completed: boolean }> } | undefined;
  const open = new Map<string, Open>();
  const completed = (item: CodexItem): CodexEvent => ({ type: "item.completed", item });

  const flush = (): CodexEvent[] => {
    const events: CodexEvent[] = [];
    if (thought.trim()) events.push(completed({ id: newId(), type: "reasoning", text: thought.trim() }));
    if (text.trim()) {
      finalMessage = text.trim();
      events.push(completed({ id: newId(), type: "agent_message", text: finalMessage }));
    }
    thought = "";
    text = "";
    return events;
  };

  const start = (e: Extract<RunEvent, { type: "tool_call" }>): CodexEvent[] => {
    if (e.kind === "think") return []; // plan tools: their plan becomes the todo_list
    if (e.diffs.length > 0 || ["edit", "delete", "move"].includes(e.kind)) {
      open.set(e.callId, { kind: "file", id: newId(), toolKind: e.kind, paths: e.paths, diffs: e.diffs });
      return []; // Codex emits a file change once, when the patch succeeded or failed
    }
    if (e.kind === "execute") {
      const item = {
        id: newId(),
        type: "command_execution" as const,
        command: commandOf(e.input) ?? e.title,
        aggregated_output: "",
        exit_code: null,
        status: "in_progress" as const,
      };
      open.set(e.callId, { kind: "command", item, rejected: false });
      return [{ type: "item.started", item }];
    }
    const [server, tool] = mcpNames(e.name, e.title, BUILTIN_SERVER);
    const item = {
      id: newId(),
      type: "mcp_tool_call" as const,
      server,
      tool,
      arguments: e.input ?? {},
      result: null,
      error: null,
      status: "in_progress" as const,
    };
    open.set(e.callId, { kind: "mcp", item });
    return [{ type: "item.started", item }];
  };

  const done = (e: Extract<RunEvent, { type: "tool_done" }>): CodexEvent[] => {
    const call = open.get(e.callId);
    if (!call) return [];
    open.delete(e.callId);
    if (call.kind === "file") {
      const diffs = e.diffs.length > 0 ? e.diffs : call.diffs;
      const changes =
        diffs.length > 0
          ? diffs.map((d) => ({ path: d.path, kind: changeKind(d, call.toolKind) }))
          : call.paths.map((path) => ({
              path,
              kind: call.toolKind === "delete" ? ("delete" as const) : ("update" as const),
            }));
      return [
        completed({ id: call.id, type: "file_change", changes, status: e.ok ? "completed" : "failed" }),
      ];
    }
    if (call.kind === "command") {
      // Command tools report a non-zero exit as a failed call, so only failures need the code.
      const exitCode = e.ok ? 0 : call.rejected ? null : (exitCodeOf(e.output) ?? 1);
      const status = e.ok ? "completed" : "failed";
      return [completed({ ...call.item, aggregated_output: e.text, exit_code: exitCode, status })];
    }
    const result = e.ok
      ? { content: [{ type: "text" as const, text: e.text }], structured_content: null }
      : null;
    const error = e.ok ? null : { message: e.text || e.output || "tool call failed" };
    return [completed({ ...call.item, result, error, status: e.ok ? "completed" : "failed" })];
  };

  return {
    /** The first events of a run: the thread (our session id) and the turn. */
    start(threadId: string): CodexEvent[] {
      return [{ type: "thread.started", thread_id: threadId }, { type: "turn.started" }];
    },

    map(e: RunEvent): CodexEvent[] {
      switch (e.type) {
        case "text": {
          const events = thought.trim() ? flush() : [];
          text += e.text;
          return events;
        }
        case "thought": {
          const events = text.trim() ? flush() : [];
          thought += e.text;
          return events;
        }
        case "notice":
          return e.severity === "error"
            ? [{ type: "error", message: e.text }]
            : [completed({ id: newId(), type: "error", message: e.text })];
        case "tool_call":
          return [...flush(), ...start(e)];
        case "tool_done":
          return done(e);
        case "rejected": {
          const call = open.get(e.callId);
          if (call?.kind === "command") call.rejected = true;
          return [];
        }
        case "plan": {
          const items = e.entries.map((entry) => ({
            text: entry.content,
            completed: entry.status === "completed",
          }));
          const type = todo ? "item.updated" : "item.started";
          todo = { id: todo?.id ?? newId(), items };
          return [...flush(), { type, item: { id: todo.id, type: "todo_list", items } }];
        }
        case "tool_output":
          return [];
      }
    },

    /** The last events: pending text, unfinished calls, the todo list, then turn.completed or turn.failed. */
    finish(outcome: TurnOutcome): CodexEvent[] {
      const events = flush();
      for (const callId of [...open.keys()]) {
        events.push(...done({ type: "tool_done", callId, ok: false, text: "", diffs: [] }));
      }
      if (todo) events.push(completed({ id: todo.id, type: "todo_list", items: todo.items }));
      todo = undefined;
      if ("stopReason" in outcome && outcome.stopReason === "end_turn") {
        const u = outcome.usage;
        events.push({
          type: "turn.completed",
          usage: {
            input_tokens: u?.inputTokens ?? 0,
            cached_input_tokens: u?.cachedInputTokens ?? 0,
            output_tokens: u?.outputTokens ?? 0,
          },
        });
        return events;
      }
      finalMessage = undefined;
      const message = "error" in outcome ? outcome.error : stopMessage(outcome.stopReason);
      events.push({ type: "turn.failed", error: { message } });
      return events;
    },

    /** The last agent message of a completed turn (for `--output-last-message`). */
    finalMessage: () => finalMessage,
  };
}

/** Why a turn that ended without `end_turn` failed, in words. */
export function stopMessage(stopReason: string): string {
  switch (stopReason) {
    case "cancelled":
      return "turn cancelled";
    case "max_tokens":
      return "the model stopped at its output token limit";
    case "max_turn_requests":
      return "the turn reached max_turn_steps model requests";
    case "refusal":
      return "the model refused";
    default:
      return `turn ended: ${stopReason}`;
  }
}

function changeKind(diff: RunDiff, toolKind: string): "add" | "delete" | "update" {
  if (diff.oldText === null) return "add";
  if (toolKind === "delete" || (diff.newText === "" && diff.oldText !== "")) return "delete";
  return "update";
}
