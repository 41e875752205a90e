import type { ModelRequest } from "../../providers/model-request.js";
import { planFile } from "../../tools/ask/plan-file.js";

/**
 * While plan mode is on, Claude Code 2.1.44 reminds the model of it with the turn's user message:
 * nothing may change but the plan file, whose path it gives, and ExitPlanMode asks for approval.
 * Our words, its rules and slots; it rides on the latest user message of the request.
 */
export function withPlanReminder(request: ModelRequest, scratchDir: string): ModelRequest {
  const last = request.messages.findLast((message) => message.role === "user");
  if (last?.role !== "user") return request;
  last.content = [...last.content, { type: "text", text: planReminder(planFile(scratchDir)) }];
  return request;
}

export function planReminder(file: string): string {
  return `<system-reminder>
Plan mode is active. The user does not want anything carried out yet: make no edits (except to the plan file below), run no command that changes anything, change no configuration and make no commits. This comes before every other instruction you have.

## Plan File Info:
The plan file is ${file}. Write your plan there with the Write tool, or change it with Edit once it exists; it is the only file you may edit.

Explore with read-only tools, ask the user with AskUserQuestion where the approach is unclear, and when the plan is complete call ExitPlanMode so the user can approve it. Do not ask for approval any other way.
</system-reminder>`;
}
