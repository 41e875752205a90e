import type { Message } from "../../providers/model-request.js";
import type { HistoryEvent } from "../../store/events.js";
import type { Tool } from "../../tools/types.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { INTERRUPTED_OUTPUT } from "../shared/user-content.js";
import { adoptKimiCall } from "./adopt-kimi-call.js";
import reminder from "./auto-mode-reminder.md";
import dateReminder from "./date-reminder.md";
import { repeatNudges, systemReminder } from "./repeat-nudges.js";
import { taskNotification } from "./task-notification.js";
import { modelText } from "./tool-result.js";

/** Sent as its own user message right after every user message (OI `kimi_code.rs`). */
export const AUTO_MODE_REMINDER = systemReminder(reminder);

/**
 * Kimi Code 2.1.0 tells the date once, in a `<system-reminder>` of its own right after the first
 * user message and before the auto-mode one (its date-change reminder, which sorts first).
 */
export function dateReminderFor(date: string): string {
  return systemReminder(dateReminder.replace("{{ DATE }}", date));
}

/**
 * The conversation as Kimi Code sends it (OI `kimi_code.rs` with `kimi_cli.rs`
 * `MessageBuildOptions::kimi_code()`, kosong `providers/kimi.ts`):
 * - every user message is followed by the auto-mode `<system-reminder>` user message, and no
 *   two user messages are joined; the first one (given a `date`) by the date reminder before it;
 * - assistant messages always carry `reasoning_content`, empty when there was none;
 * - tool-call ids are replayed with `:` replaced by `_`, arguments as compact JSON in the
 *   model's key order;
 * - tool results in Kimi's `<system>` wrapping, with the repeated-call nudges appended; an
 *   image result as parts of its tool message;
 * - a background task's end as its own `<notification>` user message where the session put it
 *   (after the results the model last saw, or before the next prompt);
 * - calls made under another harness become Kimi calls where the capability maps.
 */
export function renderKimiMessages(
  history: HistoryEvent[],
  options: { harness: string; tools?: readonly Tool[]; date?: string },
): Message[] {
  const nudges = repeatNudges(history);
  const messages = renderChatMessages(history, {
    harness: options.harness,
    ...(options.tools ? { tools: options.tools } : {}),
    adopt: adoptKimiCall,
    callId: kimiCallId,
    callArguments: compactJson,
    resultText: ({ call, result }) => {
      if (!result) return modelText("cancelled", INTERRUPTED_OUTPUT);
      const nudge = nudges.get(call.callId);
      return modelText(result.status, result.output) + (nudge ? `\n\n${nudge}` : "");
    },
    afterUser: [{ role: "user", content: [{ type: "text", text: AUTO_MODE_REMINDER }] }],
    joinUsers: false,
    alwaysReasoning: true,
    // ReadMediaFile's image goes inside its tool message, as parts.
    imagesInside: true,
    backgroundEnded: { text: taskNotification, at: "place" },
  });
  if (options.date !== undefined) {
    const first = messages.findIndex((m) => m.role === "user");
    if (first >= 0) {
      messages.splice(first + 1, 0, {
        role: "user",
        content: [{ type: "text", text: dateReminderFor(options.date) }],
      });
    }
  }
  return messages;
}

/** Kimi's own ids look like `functions.Read:3`; Kimi Code sends them back as `functions.Read_3`. */
export function kimiCallId(id: string): string {
  return id.replaceAll(":", "_");
}

/** Drops whitespace outside strings, keeping the model's key order (OI `compact_json_whitespace_preserving_order`). */
export function compactJson(input: string): string {
  let out = "";
  let inString = false;
  let escaped = false;
  for (const char of input) {
    if (inString) {
      out += char;
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (!/\s/.test(char)) {
      out += char;
    }
  }
  return out;
}
