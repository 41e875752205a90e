import type { Message } from "../../providers/model-request.js";
import reminder from "./plan-mode-reminder.md";
import { systemReminder } from "./repeat-nudges.js";

/**
 * Kimi Code 2.1.0's full plan-mode reminder (its rules, workflow and approach handling, our
 * words) as the `<system-reminder>` user message it injects before a request in plan mode. 2.1.0
 * keeps it in the context and sends a shorter one on later steps; here the full one is the
 * request's last message while plan mode is on.
 */
export function planModeReminder(file: string): Message {
  return {
    role: "user",
    content: [{ type: "text", text: systemReminder(reminder.replace("{{ PLAN_FILE }}", file)) }],
  };
}
