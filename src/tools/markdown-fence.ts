/** Wraps command output in a Markdown code fence longer than any backtick run inside it. */
export function fence(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}\n${text}${text.endsWith("\n") ? "" : "\n"}${ticks}`;
}
