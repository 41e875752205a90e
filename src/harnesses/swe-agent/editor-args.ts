import { tokenizeShell } from "../../tools/exec/shell-tokenizer.js";

/** `str_replace_editor`'s arguments (SWE-agent 1.1.0 `tools/edit_anthropic`), as its argparse reads them. */
export interface EditorArgs {
  command: string;
  path: string;
  file_text?: string;
  view_range?: [number, number];
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  /** Set when the words did not fit argparse: what it prints instead of running. */
  usage_error?: string;
}

const USAGE =
  "usage: str_replace_editor [-h] [--file_text FILE_TEXT] [--view_range VIEW_RANGE VIEW_RANGE] [--old_str OLD_STR] [--new_str NEW_STR] [--insert_line INSERT_LINE] command path";

/**
 * The editor call a command line stands for: a simple command (no operators, no expansions)
 * whose first word is `str_replace_editor`. `undefined` for anything else, which runs in bash
 * as written; an argparse error where the words do not fit.
 */
export function editorCall(command: string): { args: EditorArgs } | { error: string } | undefined {
  if (!/^\s*str_replace_editor(\s|$)/.test(command)) return undefined;
  const tokens = tokenizeShell(command);
  if (!tokens || tokens.some((t) => t.type !== "word")) return undefined;
  const words = tokens.map((t) => (t.type === "word" ? t.value : ""));
  const positional: string[] = [];
  const options: Record<string, string[]> = {};
  const arity: Record<string, number> = {
    file_text: 1,
    view_range: 2,
    old_str: 1,
    new_str: 1,
    insert_line: 1,
  };
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const match = /^--(\w+)(?:=([\s\S]*))?$/.exec(word);
    if (!match) {
      positional.push(word);
      continue;
    }
    const name = match[1]!;
    const n = arity[name];
    if (n === undefined)
      return { error: `${USAGE}\nstr_replace_editor: error: unrecognized arguments: ${word}` };
    const values = match[2] !== undefined ? [match[2]] : words.slice(i + 1, i + 1 + n);
    if (match[2] === undefined) i += n;
    if (values.length < n) {
      const what = n === 1 ? "expected one argument" : `expected ${n} arguments`;
      return { error: `${USAGE}\nstr_replace_editor: error: argument --${name}: ${what}` };
    }
    options[name] = values;
  }
  if (positional.length < 2) {
    const missing = ["command", "path"].slice(positional.length).join(", ");
    return { error: `${USAGE}\nstr_replace_editor: error: the following arguments are required: ${missing}` };
  }
  if (positional.length > 2) {
    return {
      error: `${USAGE}\nstr_replace_editor: error: unrecognized arguments: ${positional.slice(2).join(" ")}`,
    };
  }
  const int = (name: string, value: string): number | string =>
    /^[-+]?\d+$/.test(value.trim())
      ? Number(value)
      : `${USAGE}\nstr_replace_editor: error: argument --${name}: invalid int value: '${value}'`;
  const args: EditorArgs = { command: positional[0]!, path: positional[1]! };
  for (const key of ["file_text", "old_str", "new_str"] as const)
    if (options[key]) args[key] = options[key][0]!;
  if (options.insert_line) {
    const line = int("insert_line", options.insert_line[0]!);
    if (typeof line === "string") return { error: line };
    args.insert_line = line;
  }
  if (options.view_range) {
    const [a, b] = options.view_range.map((v) => int("view_range", v));
    if (typeof a === "string") return { error: a };
    if (typeof b === "string") return { error: b };
    args.view_range = [a!, b!];
  }
  return { args };
}
