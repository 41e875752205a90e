import type { HistoryEvent } from "../../store/events.js";
import type { ParsedReply } from "../types.js";
import { editorCall } from "./editor-args.js";
import formatError from "./format-error.md";

/** SWE-agent's `ThoughtActionParser` code fence pattern (v1.1.0 `sweagent/tools/parsing.py`), multiline. */
const FENCE = /^```(\S*)\s*\n|^```\s*$/gm;

/** The correction sent when a reply holds no action (its `format_error_template`, rendered). */
export const FORMAT_ERROR = formatError.trimEnd();

/**
 * `ToolFilterConfig` of v1.1.0: an action is refused when a `blocklist` entry starts with it
 * (the original compares that way round, so `vim foo` runs and `vim` alone does not), when it
 * equals a `blocklist_standalone` entry, or when its program needs an argument it lacks.
 */
const BLOCKLIST = ["vim", "vi", "emacs", "nano", "nohup", "gdb", "less", "tail -f", "python -m venv", "make"];
const BLOCKLIST_STANDALONE = [
  ...["python", "python3", "ipython", "bash", "sh", "/bin/bash", "/bin/sh"],
  ...["nohup", "vi", "vim", "emacs", "nano", "su"],
];
const BLOCK_UNLESS: Record<string, RegExp> = {
  radare2: /\b(?:radare2)\b.*\s+-c\s+.*/,
  r2: /\b(?:radare2)\b.*\s+-c\s+.*/,
};

/** `submit` (its `-f` skips the review round) and `exit`, which ends the run at once. */
const SUBMIT = /^submit(?:\s+(-f|--force))?$/;

/**
 * The last code block that is not nested in another, as the original finds it: an opening
 * fence carries a (maybe empty) tag, a bare fence closes the innermost open block.
 */
export function lastCodeBlock(text: string): { thought: string; action: string } | undefined {
  const stack: RegExpExecArray[] = [];
  let last: [RegExpExecArray, RegExpExecArray] | undefined;
  for (const match of text.matchAll(FENCE)) {
    const tag = match[1];
    if (stack.length > 0 && !tag) {
      const start = stack.pop()!;
      if (stack.length === 0) last = [start, match as RegExpExecArray];
    } else if (tag !== undefined) {
      stack.push(match as RegExpExecArray);
    }
  }
  if (!last) return undefined;
  const [start, end] = last;
  const startEnd = start.index + start[0].length;
  return {
    thought: text.slice(0, start.index) + text.slice(end.index + end[0].length),
    action: text.slice(startEnd, end.index),
  };
}

export function isBlocked(action: string): boolean {
  const trimmed = action.trim();
  if (!trimmed) return false;
  if (BLOCKLIST.some((entry) => entry.startsWith(trimmed))) return true;
  if (BLOCKLIST_STANDALONE.includes(trimmed)) return true;
  const name = trimmed.split(/\s+/)[0]!;
  const unless = BLOCK_UNLESS[name];
  return unless !== undefined && !unless.test(trimmed);
}

/** The correction for a refused action (`blocklist_error_template`, the action as parsed). */
export function blockedText(action: string): string {
  return `Operation '${action}' is not supported by this environment.`;
}

/** Whether this task's review round has been shown: a `submit` call since the last prompt. */
export function reviewed(history: readonly HistoryEvent[]): boolean {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i]!;
    if (event.type === "user_message") return false;
    if (event.type === "tool_call" && event.harness === "swe-agent" && event.name === "submit") return true;
  }
  return false;
}

/**
 * A reply is a discussion plus its last top-level code block, whatever the fence's tag. No
 * block gets the format correction; a refused action gets the blocklist's; the first `submit`
 * shows the review round, the next one (or `submit -f`, or `exit`) ends the turn with the reply
 * as the answer; anything else is one `bash` call.
 */
export function parseAction(
  text: string,
  options: { newId(): string; history?: readonly HistoryEvent[] },
): ParsedReply {
  const block = lastCodeBlock(text);
  if (!block) return { calls: [], formatError: FORMAT_ERROR };
  if (isBlocked(block.action)) return { calls: [], formatError: blockedText(block.action) };
  const command = block.action.trim();
  if (command === "exit") return { calls: [] };
  const submit = SUBMIT.exec(command);
  if (submit) {
    if (submit[1] || reviewed(options.history ?? [])) return { calls: [] };
    return { calls: [{ id: options.newId(), name: "submit", arguments: "{}" }] };
  }
  const editor = editorCall(command);
  if (editor) {
    // argparse's complaint is all such a command prints; the editor answers it without acting.
    const args = "args" in editor ? editor.args : { command: "", path: "", usage_error: editor.error };
    return { calls: [{ id: options.newId(), name: "str_replace_editor", arguments: JSON.stringify(args) }] };
  }
  return { calls: [{ id: options.newId(), name: "bash", arguments: JSON.stringify({ command }) }] };
}
