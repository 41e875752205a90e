import type { ContentBlock, PlanEntry, StoredEvent } from "../../store/events.js";

/** A tool call's outcome as a reader sees it; `unanswered` when no result was ever stored. */
export type ToolOutcome = "completed" | "failed" | "rejected" | "cancelled" | "unanswered";

/** One readable piece of a transcript, in the order it happened. */
export type TranscriptItem =
  | { type: "user"; text: string }
  | { type: "assistant"; text: string; reasoning: string }
  | { type: "tool"; title: string; name: string; outcome: ToolOutcome }
  | { type: "plan"; entries: PlanEntry[] }
  | { type: "notice"; severity: "info" | "warning" | "error"; text: string }
  | { type: "turn_failed"; text: string }
  | { type: "cancelled" };

/**
 * Folds the stored history into what a reader wants: user and assistant text (the batched parts
 * of one model response joined), each tool call once with its outcome, plans, notices and how
 * turns ended. Pure; the order of events is kept.
 */
export function transcriptItems(events: readonly StoredEvent[]): TranscriptItem[] {
  const outcomes = new Map<string, ToolOutcome>();
  for (const { event } of events) if (event.type === "tool_result") outcomes.set(event.callId, event.status);

  const items: TranscriptItem[] = [];
  let open: { key: string; item: Extract<TranscriptItem, { type: "assistant" }> } | undefined;
  for (const { event } of events) {
    if (event.type === "assistant_message") {
      const key = `${event.turnId}:${event.step}`;
      if (open?.key === key && items.at(-1) === open.item) {
        open.item.text += event.text;
        open.item.reasoning += event.reasoning;
      } else {
        open = { key, item: { type: "assistant", text: event.text, reasoning: event.reasoning } };
        items.push(open.item);
      }
      continue;
    }
    switch (event.type) {
      case "user_message":
        items.push({ type: "user", text: contentText(event.content) });
        break;
      case "tool_call":
        items.push({
          type: "tool",
          title: event.title,
          name: event.name,
          outcome: outcomes.get(event.callId) ?? "unanswered",
        });
        break;
      case "plan":
        items.push({ type: "plan", entries: event.entries });
        break;
      case "notice":
        // Whether commands were confined is about the machine it ran on, not the conversation.
        if (event.topic !== "sandbox")
          items.push({ type: "notice", severity: event.severity, text: event.text });
        break;
      case "harness_changed":
        items.push(info(`harness: ${event.harness}${event.reason ? ` (${event.reason})` : ""}`));
        break;
      case "model_changed":
        items.push(info(`model: ${event.model}`));
        break;
      case "mode_changed":
        items.push(info(`mode: ${event.mode}`));
        break;
      case "background_ended":
        items.push(info(`background command ${event.id} ended (${event.status}): ${event.command}`));
        break;
      case "compaction":
        items.push(info(`conversation compacted (${event.replaced} events summarized)`));
        break;
      case "turn_ended":
        if (event.error) items.push({ type: "turn_failed", text: event.error });
        else if (event.stopReason === "cancelled") items.push({ type: "cancelled" });
        break;
      default:
        break;
    }
  }
  // Empty parts (a response that was only tool calls) say nothing to a reader.
  return items.filter((item) => item.type !== "assistant" || item.text.trim() || item.reasoning.trim());
}

function info(text: string): TranscriptItem {
  return { type: "notice", severity: "info", text };
}

/** The readable text of ACP content blocks: text as is, anything else as a short reference. */
export function contentText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      const b = block as Record<string, unknown>;
      switch (block.type) {
        case "text":
          return String(b.text ?? "");
        case "resource_link":
          return `@${String(b.uri ?? b.name ?? "")}`;
        case "resource": {
          const resource = b.resource as { uri?: unknown } | undefined;
          return `@${String(resource?.uri ?? "resource")}`;
        }
        case "image":
          return "[image]";
        case "audio":
          return "[audio]";
        default:
          return `[${block.type}]`;
      }
    })
    .join("\n");
}

export const OUTCOME_MARK: Record<ToolOutcome, string> = {
  completed: "✓",
  failed: "✗",
  rejected: "⊘",
  cancelled: "⊘",
  unanswered: "…",
};

export const PLAN_MARK: Record<PlanEntry["status"], string> = {
  completed: "[x]",
  in_progress: "[~]",
  pending: "[ ]",
};
