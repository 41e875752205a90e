import type { ParsedReply } from "../types.js";
import formatError from "./format-error.md";

/** mini-swe-agent v1's `action_regex`, applied like Python's `re.findall(..., re.DOTALL)`. */
const ACTION = /```bash\s*\n([\s\S]*?)\n```/g;

/** The commands that end a mini-swe-agent run (`DefaultAgent.has_finished`). */
const SUBMIT =
  /^echo\s+(["']?)(COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT|MINI_SWE_AGENT_FINAL_OUTPUT)\1\s*(?:$|&&|;|\n)/;

/** The correction sent back when a reply holds zero or several bash blocks. */
export function formatErrorText(count: number): string {
  return formatError.trimEnd().replace("{{count}}", String(count));
}

/**
 * Exactly one fenced bash block is one `bash` call. A reply whose command starts with
 * `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT` is the submission: the turn ends with that
 * reply as the final answer and the command is not run (in mini-swe-agent nothing happens
 * after it either, and "do not combine it with any other command" is the rule).
 */
export function parseAction(text: string, options: { newId(): string }): ParsedReply {
  const actions = [...text.matchAll(ACTION)].map((match) => (match[1] ?? "").trim());
  if (actions.length !== 1) return { calls: [], formatError: formatErrorText(actions.length) };
  const command = actions[0]!;
  if (SUBMIT.test(command)) return { calls: [] };
  return { calls: [{ id: options.newId(), name: "bash", arguments: JSON.stringify({ command }) }] };
}
