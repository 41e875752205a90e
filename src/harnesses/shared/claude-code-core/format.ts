/**
 * Claude Code's result text shapes. Sources: the CLI's `utils/file.ts::addLineNumbers` and
 * `FileEditTool.getSnippet` (nyxkrage/claude-code, the published 0.2.x source), Bash's
 * `formatOutput` head truncation and `mapToolResultToToolResultBlockParam` (Claude Code 2.x,
 * quoted in mylinyuzhi/analysis_claude_code_v2 and the 2.1.88 source), and the
 * `<tool_use_error>` wrapping of failed calls.
 */

/** Bash output above this many characters is cut (`BASH_MAX_OUTPUT_LENGTH` default). */
export const BASH_MAX_OUTPUT_CHARS = 30_000;

/** Lines of context the Edit result shows around the change. */
const SNIPPET_CONTEXT_LINES = 4;

/** How Claude Code hands a failed call back: the message inside `<tool_use_error>` tags. */
export function toolUseError(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}

/**
 * `cat -n` numbering: the line number right-aligned in six columns, a tab, the line. Lines are
 * split on `\n` or `\r\n`, so a final newline shows as a last, empty numbered line.
 */
export function addLineNumbers(content: string, startLine: number): string {
  if (!content) return "";
  return content
    .split(/\r?\n/)
    .map((line, index) => `${String(index + startLine).padStart(6, " ")}\t${line}`)
    .join("\n");
}

/**
 * The part of the edited file Claude Code shows after an Edit: from four lines before the first
 * replaced line to four lines after the inserted text (one more at the end, as upstream slices).
 */
export function editSnippet(input: { original: string; oldString: string; newString: string }): {
  snippet: string;
  startLine: number;
} {
  const { original, oldString, newString } = input;
  const before = original.split(oldString)[0] ?? "";
  const replacementLine = before.split(/\r?\n/).length - 1;
  const index = original.indexOf(oldString);
  const updated =
    index < 0 ? original : original.slice(0, index) + newString + original.slice(index + oldString.length);
  const newLines = updated.split(/\r?\n/);
  const start = Math.max(0, replacementLine - SNIPPET_CONTEXT_LINES);
  const end = replacementLine + SNIPPET_CONTEXT_LINES + newString.split(/\r?\n/).length;
  return { snippet: newLines.slice(start, end + 1).join("\n"), startLine: start + 1 };
}

/** `The file … has been updated. Here's the result of running \`cat -n\` on a snippet …` */
export function updatedWithSnippet(filePath: string, snippet: string, startLine: number): string {
  return `The file ${filePath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${addLineNumbers(snippet, startLine)}`;
}

/**
 * Keeps the first 30 000 characters and says how many lines were cut after them:
 * `\n\n... [N lines truncated] ...`. `extraLines` counts lines the runner already dropped from
 * the middle of the output (they are part of what is not shown).
 */
export function truncateBashOutput(text: string, extraLines = 0): string {
  if (text.length <= BASH_MAX_OUTPUT_CHARS && extraLines === 0) return text;
  if (text.length <= BASH_MAX_OUTPUT_CHARS) return `${text}\n\n... [${extraLines} lines truncated] ...`;
  const kept = text.slice(0, BASH_MAX_OUTPUT_CHARS);
  const remaining = text.slice(BASH_MAX_OUTPUT_CHARS).split("\n").length + extraLines;
  return `${kept}\n\n... [${remaining} lines truncated] ...`;
}

/** Claude Code's duration wording in timeout messages: `45s`, `2m 0s`. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/** Upstream's `plural()`: `file`/`files`. */
export function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
