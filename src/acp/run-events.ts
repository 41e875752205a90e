import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk/unstable";
import { NOTICE_META } from "./map-output.js";

/** A file change shown by a tool call: `oldText` null means the file is new. */
export interface RunDiff {
  path: string;
  oldText: string | null;
  newText: string;
}

/**
 * What a client of the agent sees during a turn, without ACP types: the vocabulary of
 * `interpreter exec` (and its Codex JSONL mapping) and of any other in-process client.
 */
export type RunEvent =
  /** Streamed answer text (one message arrives as several chunks). */
  | { type: "text"; text: string }
  | { type: "thought"; text: string }
  /** A warning or error the agent itself reports (not model text). */
  | { type: "notice"; severity: "warning" | "error"; text: string; topic?: "sandbox" }
  | {
      type: "tool_call";
      callId: string;
      title: string;
      /** ACP tool kind: execute, edit, delete, move, read, search, fetch, think, other, ... */
      kind: string;
      /** The harness's tool name (e.g. `shell_command`, `mcp__server__tool`). */
      name?: string;
      input: unknown;
      /** Files the call touches (ACP locations). */
      paths: string[];
      diffs: RunDiff[];
    }
  /** Live output of a running call: the latest tail of everything so far (not a delta). */
  | { type: "tool_output"; callId: string; text: string }
  | {
      type: "tool_done";
      callId: string;
      ok: boolean;
      /** What the call showed: command output, messages (code fences removed). */
      text: string;
      /** What the model was told, when the agent sent it. */
      output?: string;
      diffs: RunDiff[];
    }
  | { type: "plan"; entries: Array<{ content: string; status: string }> }
  /** A call needed approval; nobody could answer, so it was rejected. */
  | { type: "rejected"; callId: string; title: string };

/** Pure mapping of one ACP `session/update` onto run events (most updates map to none). */
export function toRunEvents(update: SessionUpdate): RunEvent[] {
  switch (update.sessionUpdate) {
    case "agent_message_chunk": {
      if (update.content.type !== "text") return [];
      const notice = noticeOf(update);
      if (notice && notice.severity !== "info") {
        const text = update.content.text.replace(/^\n\n\*\*\w+:\*\* /, "").replace(/\n$/, "");
        return [
          {
            type: "notice",
            severity: notice.severity,
            text,
            ...(notice.topic ? { topic: notice.topic } : {}),
          },
        ];
      }
      return [{ type: "text", text: update.content.text }];
    }
    case "agent_thought_chunk":
      return update.content.type === "text" ? [{ type: "thought", text: update.content.text }] : [];
    case "tool_call": {
      const content = update.content ?? [];
      return [
        {
          type: "tool_call",
          callId: update.toolCallId,
          title: update.title,
          kind: update.kind ?? "other",
          ...(typeof (update as { name?: unknown }).name === "string"
            ? { name: (update as { name: string }).name }
            : {}),
          input: update.rawInput,
          paths: (update.locations ?? []).map((l) => l.path),
          diffs: diffsOf(content),
        },
      ];
    }
    case "tool_call_update": {
      const content = update.content ?? [];
      if (update.status === "completed" || update.status === "failed") {
        const raw = update.rawOutput as { output?: unknown } | undefined;
        return [
          {
            type: "tool_done",
            callId: update.toolCallId,
            ok: update.status === "completed",
            text: textOf(content),
            ...(typeof raw?.output === "string" ? { output: raw.output } : {}),
            diffs: diffsOf(content),
          },
        ];
      }
      const text = textOf(content);
      return text ? [{ type: "tool_output", callId: update.toolCallId, text }] : [];
    }
    case "plan":
      return [
        { type: "plan", entries: update.entries.map((e) => ({ content: e.content, status: e.status })) },
      ];
    default:
      return [];
  }
}

function diffsOf(content: ToolCallContent[]): RunDiff[] {
  return content.flatMap((c) =>
    c.type === "diff" ? [{ path: c.path, oldText: c.oldText ?? null, newText: c.newText }] : [],
  );
}

function textOf(content: ToolCallContent[]): string {
  return content
    .flatMap((c) => (c.type === "content" && c.content.type === "text" ? [unfence(c.content.text)] : []))
    .join("\n");
}

/** Command output arrives inside a Markdown code fence (markdown-fence.ts); the text is inside. */
export function unfence(text: string): string {
  const match = /^(`{3,})\n([\s\S]*)\n\1$/.exec(text);
  if (!match) return text;
  const inner = match[2] as string;
  return inner === "" ? "" : `${inner}\n`;
}

/** The notice marker `map-output.ts` puts on an agent message chunk that is one of our notices. */
function noticeOf(
  update: SessionUpdate,
): { severity: "info" | "warning" | "error"; topic?: "sandbox" } | undefined {
  const meta = (update as { _meta?: Record<string, unknown> })._meta?.[NOTICE_META];
  if (typeof meta !== "object" || meta === null) return undefined;
  const { severity, topic } = meta as { severity?: unknown; topic?: unknown };
  if (severity !== "info" && severity !== "warning" && severity !== "error") return undefined;
  return { severity, ...(topic === "sandbox" ? { topic } : {}) };
}
