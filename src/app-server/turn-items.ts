import type { SessionUpdate } from "../acp/local-client.js";
import { type RunDiff, type RunEvent, toRunEvents } from "../acp/run-events.js";
import { commandOf, exitCodeOf, mcpNames } from "../acp/tool-facts.js";

/** A Codex `ThreadItem` (app-server protocol v2), as the fields we fill. */
export type ThreadItem = { id: string; type: string } & Record<string, unknown>;

/** A server notification: method and params, sent as one JSON-RPC line. */
export interface Notice {
  method: string;
  params: Record<string, unknown>;
}

/** What the mapper needs to know about a tool call to ask for its approval. */
export interface OpenCall {
  itemId: string;
  item: ThreadItem;
}

/**
 * One turn's ACP updates as Codex items: messages and reasoning as started + deltas +
 * completed, commands with output deltas and an exit code, edits as file changes with their
 * diffs, other tools as MCP calls of the `interpreter` server, the plan as `turn/plan/updated`.
 * Pure: no I/O; the clock is injected. Completed items are kept for `thread/read`.
 */
export function createTurnItems(options: {
  threadId: string;
  turnId: string;
  cwd: string;
  now: () => number;
}) {
  const { threadId, turnId } = options;
  let next = 0;
  const items: ThreadItem[] = [];
  const calls = new Map<string, OpenCall & { shown: string }>();
  let message: ThreadItem | undefined;
  let reasoning: ThreadItem | undefined;
  const base = { threadId, turnId };
  const started = (item: ThreadItem): Notice => ({
    method: "item/started",
    params: { ...base, item, startedAtMs: options.now() },
  });
  const completed = (item: ThreadItem): Notice => {
    items.push(item);
    return { method: "item/completed", params: { ...base, item, completedAtMs: options.now() } };
  };
  const newId = () => `item_${next++}`;

  const closeText = (): Notice[] => {
    const out: Notice[] = [];
    if (reasoning) out.push(completed(reasoning));
    if (message) out.push(completed(message));
    reasoning = undefined;
    message = undefined;
    return out;
  };

  const onEvent = (e: RunEvent): Notice[] => {
    switch (e.type) {
      case "text": {
        const out = reasoning ? closeText() : [];
        if (!message) {
          message = { id: newId(), type: "agentMessage", text: "", phase: null, memoryCitation: null };
          out.push(started({ ...message }));
        }
        message.text = `${message.text as string}${e.text}`;
        out.push({
          method: "item/agentMessage/delta",
          params: { ...base, itemId: message.id, delta: e.text },
        });
        return out;
      }
      case "thought": {
        const out = message ? closeText() : [];
        if (!reasoning) {
          reasoning = { id: newId(), type: "reasoning", summary: [], content: [""] };
          out.push(started({ ...reasoning, content: [] }));
        }
        const content = reasoning.content as string[];
        content[0] = `${content[0]}${e.text}`;
        out.push({
          method: "item/reasoning/textDelta",
          params: { ...base, itemId: reasoning.id, delta: e.text, contentIndex: 0 },
        });
        return out;
      }
      case "notice":
        return [];
      case "tool_call": {
        const out = closeText();
        if (e.kind === "think") return out;
        const item = startItem(e, newId(), options.cwd);
        calls.set(e.callId, { itemId: item.id, item, shown: "" });
        out.push(started(item));
        return out;
      }
      case "tool_output": {
        const call = calls.get(e.callId);
        if (call?.item.type !== "commandExecution") return [];
        // ACP sends the latest tail, not a delta: send what extends what was already shown.
        const delta = e.text.startsWith(call.shown) ? e.text.slice(call.shown.length) : "";
        call.shown = e.text;
        return delta
          ? [{ method: "item/commandExecution/outputDelta", params: { ...base, itemId: call.itemId, delta } }]
          : [];
      }
      case "tool_done": {
        const call = calls.get(e.callId);
        if (!call) return [];
        calls.delete(e.callId);
        return [completed(finishItem(call.item, e))];
      }
      case "plan":
        return [
          {
            method: "turn/plan/updated",
            params: {
              ...base,
              explanation: null,
              plan: e.entries.map((entry) => ({ step: entry.content, status: planStatus(entry.status) })),
            },
          },
        ];
      case "rejected":
        return [];
    }
  };

  return {
    /** The notifications for one ACP update (most produce none or one). */
    map(update: SessionUpdate): Notice[] {
      if (update.sessionUpdate === "user_message_chunk") {
        if (update.content.type !== "text") return [];
        const item = {
          id: newId(),
          type: "userMessage",
          content: [{ type: "text", text: update.content.text, text_elements: [] }],
        };
        return [...closeText(), started(item), completed(item)];
      }
      return toRunEvents(update).flatMap(onEvent);
    },
    /** The open call of an ACP tool call id, for its approval request. */
    call: (toolCallId: string): OpenCall | undefined => calls.get(toolCallId),
    /** Closes what is still open: a call the turn never finished completes as failed. */
    finish(): Notice[] {
      const out = closeText();
      for (const [callId, call] of calls) {
        calls.delete(callId);
        out.push(
          completed(finishItem(call.item, { type: "tool_done", callId, ok: false, text: "", diffs: [] })),
        );
      }
      return out;
    },
    items: (): ThreadItem[] => [...items],
  };
}

function startItem(e: Extract<RunEvent, { type: "tool_call" }>, id: string, cwd: string): ThreadItem {
  if (e.diffs.length > 0 || ["edit", "delete", "move"].includes(e.kind))
    return { id, type: "fileChange", changes: changesOf(e.diffs, e.paths, e.kind), status: "inProgress" };
  if (e.kind === "execute")
    return {
      id,
      type: "commandExecution",
      command: commandOf(e.input) ?? e.title,
      commandActions: [],
      cwd,
      status: "inProgress",
      aggregatedOutput: null,
      exitCode: null,
      processId: null,
      durationMs: null,
    };
  const [server, tool] = mcpNames(e.name, e.title, "interpreter");
  return {
    id,
    type: "mcpToolCall",
    server,
    tool,
    arguments: e.input ?? {},
    status: "inProgress",
    result: null,
    error: null,
  };
}

function finishItem(item: ThreadItem, e: Extract<RunEvent, { type: "tool_done" }>): ThreadItem {
  const status = e.ok ? "completed" : "failed";
  if (item.type === "fileChange") {
    const changes = e.diffs.length > 0 ? changesOf(e.diffs, [], "edit") : item.changes;
    return { ...item, changes, status };
  }
  if (item.type === "commandExecution") {
    const exitCode = e.ok ? 0 : (exitCodeOf(e.output) ?? (e.text || e.output ? 1 : null));
    return { ...item, aggregatedOutput: e.text, exitCode, status };
  }
  return {
    ...item,
    status,
    result: e.ok ? { content: [{ type: "text", text: e.text }], structuredContent: null } : null,
    error: e.ok ? null : { message: e.text || e.output || "tool call failed" },
  };
}

function changesOf(diffs: RunDiff[], paths: string[], kind: string) {
  if (diffs.length === 0)
    return paths.map((path) => ({
      path,
      kind: {
        type: kind === "delete" ? "delete" : "update",
        ...(kind === "delete" ? {} : { move_path: null }),
      },
      diff: "",
    }));
  return diffs.map((d) => {
    if (d.oldText === null) return { path: d.path, kind: { type: "add" }, diff: d.newText };
    if (kind === "delete" || (d.newText === "" && d.oldText !== ""))
      return { path: d.path, kind: { type: "delete" }, diff: d.oldText };
    return { path: d.path, kind: { type: "update", move_path: null }, diff: wholeDiff(d.oldText, d.newText) };
  });
}

/** A unified diff of one hunk covering the changed middle of the file (Codex shows `diff` as such). */
export function wholeDiff(oldText: string, newText: string): string {
  const a = oldText.split("\n");
  const b = newText.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const hunk = `@@ -${head + 1},${removed.length} +${head + 1},${added.length} @@\n`;
  return `${hunk + [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].join("\n")}\n`;
}

function planStatus(status: string): "pending" | "inProgress" | "completed" {
  return status === "completed" ? "completed" : status === "in_progress" ? "inProgress" : "pending";
}
