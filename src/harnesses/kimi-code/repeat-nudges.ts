import type { HistoryEvent } from "../../store/events.js";
import { repeatStreaks } from "../shared/repeat-streaks.js";

/**
 * Kimi Code's ladder for a tool call repeated with identical arguments (kimi-code
 * `agent/toolDedupe/toolDedupeService.ts`): from the 3rd identical call in a row a reminder is
 * appended to the result, a firmer one from the 5th (naming the count), and from the 8th one
 * that asks for a final text answer (streaks: shared/repeat-streaks.ts). Our wording,
 * upstream's thresholds, tag and position (`\n\n<system-reminder>\n…\n</system-reminder>` after
 * the result).
 *
 * Upstream also ends the turn at the 12th repeat; the session loop has no hook for that, so
 * from then on the model keeps getting the last reminder.
 */
export const FIRST_NUDGE_AT = 3;
export const SECOND_NUDGE_AT = 5;
export const FINAL_NUDGE_AT = 8;

export function systemReminder(text: string): string {
  return `<system-reminder>\n${text.trim()}\n</system-reminder>`;
}

export function nudgeFor(streak: number): string | undefined {
  if (streak >= FINAL_NUDGE_AT) {
    return systemReminder(
      "Stop calling tools and write your final answer now. Say what is blocking you, each approach you tried and what it showed, and exactly which information or decision you need from the user to move on. Text only.",
    );
  }
  if (streak >= SECOND_NUDGE_AT) {
    return systemReminder(
      `This exact tool call has now been made ${streak} times in a row. Pick exactly one of the options below and say which one before you act:\n` +
        "(1) Disproof check: if some test could clearly show your current approach is wrong, run the cheapest such test.\n" +
        "(2) Missing input: tell the user exactly which information or decision you need to continue, and ask for it.\n" +
        "(3) Wrap up: give your best result from the evidence you already have, and list what is still uncertain.",
    );
  }
  if (streak >= FIRST_NUDGE_AT) {
    return systemReminder(
      "You have made this exact tool call several times in a row. Before the next call, write one sentence on what new information you expect it to give you. Then follow that sentence: if it names something the current result does not already tell you, take the action most likely to provide it; if not, go on with the evidence you already have.",
    );
  }
  return undefined;
}

/** The reminder to append to each call's result, by call id (only calls that earn one). */
export function repeatNudges(history: HistoryEvent[]): Map<string, string> {
  const nudges = new Map<string, string>();
  for (const [callId, { streak }] of repeatStreaks(history)) {
    const nudge = nudgeFor(streak);
    if (nudge) nudges.set(callId, nudge);
  }
  return nudges;
}
