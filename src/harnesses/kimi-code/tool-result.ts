import type { HistoryEventOf } from "../../store/events.js";
import type { Tool } from "../../tools/types.js";

/**
 * How Kimi Code hands a tool result to the model (kimi-code `agent/contextMemory/
 * toolResultRender.ts`): a failed call is prefixed with an ERROR status line, an empty result
 * is replaced by a status line, anything else goes as is.
 */
export const ERROR_STATUS = "<system>ERROR: Tool execution failed.</system>";
export const EMPTY_OUTPUT = "<system>Tool output is empty.</system>";
export const EMPTY_ERROR = "<system>ERROR: Tool execution failed. Tool output is empty.</system>";

/**
 * Kimi Code 2.1.0 heads the results of Bash, Glob and Grep with their wall time, above the status
 * line. The tools measure it and lead their output with this line; `modelText` lifts it above
 * the status it renders.
 */
export function wallTime(ms: number): string {
  return `Wall time: ${(ms / 1000).toFixed(3)} seconds\n`;
}
const WALL_TIME = /^Wall time: [0-9.]+ seconds\n/;

/** The tool with its output headed by its wall time (Kimi Code 2.1.0 does this for Bash, Glob, Grep). */
export function timed<A>(tool: Tool<A>): Tool<A> {
  return {
    ...tool,
    async execute(args, ctx) {
      const started = performance.now();
      const result = await tool.execute(args, ctx);
      return { ...result, output: wallTime(performance.now() - started) + result.output };
    },
  };
}

/** Everything but a completed call counts as failed: errors, rejections, cancellations. */
export function modelText(status: HistoryEventOf<"tool_result">["status"], output: string): string {
  const header = WALL_TIME.exec(output)?.[0] ?? "";
  return header + statusText(status, output.slice(header.length));
}

function statusText(status: HistoryEventOf<"tool_result">["status"], output: string): string {
  if (status !== "completed") return output === "" ? EMPTY_ERROR : `${ERROR_STATUS}\n${output}`;
  return output.trim() === "" || output.trim() === "Tool output is empty." ? EMPTY_OUTPUT : output;
}
