import { existsSync } from "node:fs";
import type { Message } from "../../providers/model-request.js";
import template from "./plan-mode-reminder.md";
import { fillSlots } from "./slots.js";

/**
 * 1.49.0's plan-mode reminder (`soul/dynamic_injections/plan_mode.py`, the full version) in a
 * `<system-reminder>`, naming the plan file and whether it exists yet. 1.49.0 merges a reminder
 * into an adjacent user message (`normalize_history`) and keeps a notification apart.
 */
export function addPlanModeReminder(messages: Message[], planFile: string): void {
  const line = existsSync(planFile)
    ? `Plan file: ${planFile} (exists — read first, then update it with WriteFile or StrReplaceFile)`
    : `Plan file: ${planFile} (create it with WriteFile; once it exists, you can modify it with WriteFile or StrReplaceFile)`;
  const text = `<system-reminder>\n${fillSlots(template.trimEnd(), { PLAN_FILE_LINE: line })}\n</system-reminder>`;
  const last = messages.at(-1);
  const first = last?.role === "user" ? last.content[0] : undefined;
  if (last?.role === "user" && !(first?.type === "text" && first.text.startsWith("<notification ")))
    last.content = [...last.content, { type: "text", text }];
  else messages.push({ role: "user", content: [{ type: "text", text }] });
}
