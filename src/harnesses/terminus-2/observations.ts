import { limitOutput } from "./limit-output.js";

/** Terminus 2's longest wait for one command (`min(duration, 60)`). */
export const MAX_DURATION_S = 60;

/** The next prompt after a reply it could not read (`_run_agent_loop`). */
export function parseErrorText(error: string, warning: string): string {
  const feedback = warning ? `ERROR: ${error}\nWARNINGS: ${warning}` : `ERROR: ${error}`;
  return `Previous response had parsing errors:\n${feedback}\n\nPlease fix these issues and provide a proper JSON response.`;
}

/** The next prompt after a batch: the terminal's new output, behind the reply's warnings if it had any. */
export function stepText(terminalOutput: string, warning: string): string {
  if (!warning) return limitOutput(terminalOutput);
  return `Previous response had warnings:\nWARNINGS: ${warning}\n\n${limitOutput(terminalOutput)}`;
}

/** The first `task_complete`: asked to confirm with the terminal's state (`_get_completion_confirmation_message`). */
export function confirmationText(terminalOutput: string): string {
  return (
    `Current terminal state:\n${terminalOutput}\n\n` +
    "Are you sure you want to mark the task as complete? This will trigger your solution to be graded and you won't be able to make any further corrections. " +
    'If so, include "task_complete": true in your JSON response again.'
  );
}
