/**
 * Claude Code's result text shapes. Sources: the CLI's `utils/file.ts::addLineNumbers` and
 * (nyxkrage/claude-code, the published 0.2.x source) with 2.x's `→`, checked against the
 * 2.1.44 capture, and the `<tool_use_error>` wrapping of failed calls.
 */

/** How Claude Code hands a failed call back: the message inside `<tool_use_error>` tags. */
export function toolUseError(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}

/**
 * Claude Code 2.x numbering: the line number right-aligned in six columns, `→`, the line. Lines
 * are split on `\n` or `\r\n`, so a final newline shows as a last, empty numbered line (as
 * 2.1.44's Read of a five-line file shows `     6→`).
 */
export function addLineNumbers(content: string, startLine: number): string {
  if (!content) return "";
  return content
    .split(/\r?\n/)
    .map((line, index) => `${String(index + startLine).padStart(6, " ")}\u2192${line}`)
    .join("\n");
}

/** `The file … has been updated. Here's the result of running \`cat -n\` on a snippet …` */
export function updatedWithSnippet(filePath: string, snippet: string, startLine: number): string {
  return `The file ${filePath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${addLineNumbers(snippet, startLine)}`;
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
