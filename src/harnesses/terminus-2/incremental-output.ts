/**
 * What Terminus 2 shows after a batch of keystrokes (`TmuxSession.get_incremental_output`):
 * the part of the pane's whole scrollback that is new since the last look, or, when that
 * cannot be told (the first look, nothing new, the old buffer no longer inside the new one),
 * the visible screen.
 */
export function incrementalOutput(options: { previous?: string; buffer: string; screen: string }): string {
  const { previous, buffer, screen } = options;
  if (previous === undefined) return `Current Terminal Screen:\n${screen}`;
  const fresh = newContent(previous, buffer);
  if (fresh?.trim()) return `New Terminal Output:\n${fresh}`;
  return `Current Terminal Screen:\n${screen}`;
}

/**
 * `_find_new_content`, quirk included: the offset of the old buffer's last line is taken
 * within the old buffer (stripped), which is where it sits in the new one while the
 * scrollback only grows.
 */
function newContent(previous: string, buffer: string): string | undefined {
  const pb = previous.trim();
  if (!buffer.includes(pb)) return undefined;
  const index = pb.includes("\n") ? pb.lastIndexOf("\n") : buffer.indexOf(pb);
  return buffer.slice(index);
}
