import type { CallIntent, WireCall } from "../shared/adopt-call.js";

/**
 * Puts a call made under another harness into CodeWhale's terms, by what it asks for: a command
 * becomes `exec_shell` (its directory as `cwd`), a read `read_file`, a whole-file write
 * `write_file`, a string replacement `edit_file` (which replaces every occurrence, so a unique
 * and a replace-all edit both map to it). Patches, plans and searches are shown as text.
 */
export function adoptDeepseekCall(intent: CallIntent): WireCall | undefined {
  const out = (name: string, value: Record<string, unknown>) => ({ name, arguments: JSON.stringify(value) });
  const file = intent.path;
  switch (intent.capability) {
    case "exec":
      if (intent.command === undefined) return undefined;
      return out(
        "exec_shell",
        intent.cwd ? { command: intent.command, cwd: intent.cwd } : { command: intent.command },
      );
    case "read":
      if (!file) return undefined;
      return out("read_file", {
        path: file,
        ...(intent.offset !== undefined ? { start_line: intent.offset } : {}),
        ...(intent.limit !== undefined ? { max_lines: intent.limit } : {}),
      });
    case "write":
      return file && intent.content !== undefined
        ? out("write_file", { path: file, content: intent.content })
        : undefined;
    case "edit":
      if (!file || intent.oldString === undefined || intent.newString === undefined) return undefined;
      return out("edit_file", { path: file, search: intent.oldString, replace: intent.newString });
    default:
      return undefined;
  }
}
