/**
 * SWE-agent's step templates (v1.1.0: `config/default.yaml` `next_step_template` and
 * `next_step_no_output_template`, `TemplateConfig` defaults for the rest), rendered as its
 * Jinja templates render them. Lengths are Python's: Unicode code points.
 */

/** `TemplateConfig.max_observation_length`. */
export const MAX_OBSERVATION_CHARS = 100_000;

/** `ToolConfig.execution_timeout` (seconds). */
export const EXECUTION_TIMEOUT_S = 30;

export const NO_OUTPUT = "Your command ran successfully and did not produce any output.";

/** What the model reads after a command: the output under `OBSERVATION:`, or the no-output line. */
export function formatObservation(output: string, droppedChars = 0): string {
  if (output.trim() === "") return NO_OUTPUT;
  const chars = Array.from(output);
  const total = chars.length + droppedChars;
  if (total <= MAX_OBSERVATION_CHARS) return `OBSERVATION:\n${output}`;
  const kept = chars.slice(0, MAX_OBSERVATION_CHARS).join("");
  return (
    `Observation: ${kept}<response clipped><NOTE>Observations should not exceeded ${MAX_OBSERVATION_CHARS} characters. ` +
    `${total - MAX_OBSERVATION_CHARS} characters were elided. Please try a different command that produces less output ` +
    "or use head/tail/grep/redirect the output to a file. Do not use interactive pagers.</NOTE>"
  );
}

/** `command_cancelled_timeout_template`: the command was interrupted, its output is not shown. */
export function formatTimeout(command: string): string {
  return (
    `The command '${command}' was cancelled because it took more than ${EXECUTION_TIMEOUT_S} seconds. ` +
    "Please try a different command that completes more quickly."
  );
}
