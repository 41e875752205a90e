import type { HistoryEvent } from "../../store/events.js";
import { repeatStreaks } from "../shared/repeat-streaks.js";

/**
 * Kimi CLI 1.49.0's ladder for a call repeated with identical arguments (`soul/toolset.py`):
 * from the 3rd identical call in a row a reminder is appended to the result's output, from the
 * 5th one naming the tool, the count and the arguments, from the 8th one telling it to stop
 * calling tools. Our wording, 1.49.0's thresholds, fields and placement (`\n\n<system-reminder>`
 * after the output). 1.49.0 also ends the turn at the 12th; the session loop has no hook for
 * that, so the last reminder keeps coming.
 */
export function repeatReminders(history: readonly HistoryEvent[]): Map<string, string> {
  const reminders = new Map<string, string>();
  for (const [callId, repeat] of repeatStreaks(history)) {
    const text = reminderFor(repeat.streak, repeat.name, repeat.canonicalArgs);
    if (text) reminders.set(callId, `\n\n<system-reminder>\n${text}\n</system-reminder>`);
  }
  return reminders;
}

function reminderFor(streak: number, name: string, args: string): string | undefined {
  if (streak >= 8)
    return "You are in a dead end: the same function call, again and again, without progress.\nStop calling functions now. Call no tool in your next response.\nIn your analysis, look at where the work stands and find out why it is blocked.\nThen give the user a text-only summary: the problem as it stands, what has been tried, and which information or decision is needed next.";
  if (streak >= 5)
    return [
      "You have called the same tool with the same parameters many times.",
      "Repeated tool call detected:",
      `- tool: ${name}`,
      `- repeated_times: ${streak}`,
      `- arguments: ${args}`,
      "The repeated calls before this one got nowhere. Do not make this exact call with these exact arguments again.",
      "Look closely at the latest result and choose another next step, other parameters, or finish the task if the evidence already suffices.",
    ].join("\n");
  if (streak >= 3)
    return "You are repeating exactly the same tool call with the same parameters. Study the previous result carefully. If the task is not done yet, try another method or other parameters rather than the same call again.";
  return undefined;
}
