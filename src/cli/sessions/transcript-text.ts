import type { StoredEvent } from "../../store/events.js";
import type { SessionRecord } from "../../store/types.js";
import { OUTCOME_MARK, PLAN_MARK, type TranscriptItem, transcriptItems } from "./transcript-items.js";

/**
 * `interpreter sessions show`: a plain-text transcript for a terminal or a pager. User and
 * assistant text under a role line, each tool call on one line with ✓ / ✗ / ⊘, notices marked.
 * Reasoning only when asked for (it is long and rarely what one looks for).
 */
export function transcriptText(options: {
  session: SessionRecord;
  events: readonly StoredEvent[];
  reasoning?: boolean;
}): string {
  const { session, events } = options;
  const out: string[] = [
    `session ${session.id}${session.title ? `  ${session.title}` : ""}`,
    `cwd ${session.cwd} · harness ${session.harness ?? "auto"} · model ${session.model ?? "default"} · mode ${session.mode}`,
    `created ${session.createdAt} · updated ${session.updatedAt}`,
  ];
  let speaker: "user" | "assistant" | undefined;
  const say = (who: "user" | "assistant") => {
    if (speaker === who) return;
    speaker = who;
    out.push("", who === "user" ? "you:" : "assistant:");
  };
  for (const item of transcriptItems(events)) {
    if (item.type === "user") {
      say("user");
      out.push(indent(item.text));
      continue;
    }
    say("assistant");
    out.push(...itemLines(item, options.reasoning === true));
  }
  return `${out.join("\n")}\n`;
}

function itemLines(item: Exclude<TranscriptItem, { type: "user" }>, reasoning: boolean): string[] {
  switch (item.type) {
    case "assistant": {
      const lines: string[] = [];
      if (reasoning && item.reasoning.trim()) lines.push(indent(`(thinking) ${item.reasoning.trim()}`));
      if (item.text.trim()) lines.push(indent(item.text.trim()));
      return lines;
    }
    case "tool": {
      const status = item.outcome === "completed" ? "" : ` (${item.outcome})`;
      return [`  ${OUTCOME_MARK[item.outcome]} ${oneLine(item.title)}${status}`];
    }
    case "plan":
      return item.entries.map((entry) => `  ${PLAN_MARK[entry.status]} ${oneLine(entry.content)}`);
    case "notice":
      return [`  ${item.severity === "info" ? "·" : "!"} ${oneLine(item.text)}`];
    case "turn_failed":
      return [`  ✗ turn failed: ${oneLine(item.text)}`];
    case "cancelled":
      return ["  ⊘ cancelled"];
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => (line ? `  ${line}` : ""))
    .join("\n");
}

/** Tool titles and notices stay on their line; a long one is cut with an ellipsis. */
export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
