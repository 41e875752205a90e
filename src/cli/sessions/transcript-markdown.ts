import type { StoredEvent } from "../../store/events.js";
import type { SessionRecord } from "../../store/types.js";
import { fence } from "../../tools/markdown-fence.js";
import { OUTCOME_MARK, PLAN_MARK, type TranscriptItem, transcriptItems } from "./transcript-items.js";
import { oneLine } from "./transcript-text.js";

/**
 * `interpreter sessions export --format md`: the transcript as a Markdown document. Message text
 * is kept as written (models answer in Markdown); tool calls are list items with their outcome,
 * reasoning sits in a collapsed `<details>` block.
 */
export function transcriptMarkdown(options: {
  session: SessionRecord;
  events: readonly StoredEvent[];
}): string {
  const { session, events } = options;
  const out: string[] = [
    `# ${session.title ?? `Session ${session.id}`}`,
    "",
    `- Session: ${code(session.id)}`,
    `- Directory: ${code(session.cwd)}`,
    `- Harness: ${session.harness ?? "auto"} · Model: ${session.model ?? "default"} · Mode: ${session.mode}`,
    `- Created: ${session.createdAt} · Updated: ${session.updatedAt}`,
  ];
  let speaker: "user" | "assistant" | undefined;
  for (const item of transcriptItems(events)) {
    const who = item.type === "user" ? "user" : "assistant";
    if (who !== speaker) {
      speaker = who;
      out.push("", who === "user" ? "## You" : "## Assistant");
    }
    out.push("", ...itemMarkdown(item));
  }
  return `${out.join("\n")}\n`;
}

function itemMarkdown(item: TranscriptItem): string[] {
  switch (item.type) {
    case "user":
      return [item.text.trim()];
    case "assistant": {
      const parts: string[] = [];
      if (item.reasoning.trim()) {
        parts.push("<details><summary>Reasoning</summary>", "", item.reasoning.trim(), "", "</details>");
      }
      if (item.text.trim()) parts.push(...(parts.length ? [""] : []), item.text.trim());
      return parts;
    }
    case "tool": {
      const status = item.outcome === "completed" ? "" : ` *(${item.outcome})*`;
      return [`- ${OUTCOME_MARK[item.outcome]} ${code(oneLine(item.title))}${status}`];
    }
    case "plan":
      return item.entries.map((entry) => `- ${PLAN_MARK[entry.status]} ${oneLine(entry.content)}`);
    case "notice":
      return [`> ${item.severity === "info" ? "" : `**${item.severity}:** `}${oneLine(item.text, 2000)}`];
    case "turn_failed":
      return [`> **Turn failed:** ${oneLine(item.text, 2000)}`];
    case "cancelled":
      return ["> Cancelled."];
  }
}

/** Inline code that survives backticks in the text. */
function code(text: string): string {
  if (!text.includes("`")) return `\`${text}\``;
  const block = fence(text);
  const ticks = block.slice(0, block.indexOf("\n"));
  return `${ticks} ${text} ${ticks}`;
}
