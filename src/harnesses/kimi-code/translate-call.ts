import type { HistoryEventOf } from "../../store/events.js";

/**
 * Puts a call made under another harness into Kimi Code's terms, by capability: a command
 * becomes `Bash`, a file read `Read`, a whole-file write `Write`, a single string replacement
 * `Edit`. Anything else (patches, plans, searches with other parameters) has no faithful
 * counterpart and is shown as text (undefined here).
 */
export function translateCall(
  call: HistoryEventOf<"tool_call">,
): { name: string; arguments: string } | undefined {
  let args: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(call.arguments || "{}");
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    args = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const text = (...keys: string[]) =>
    keys.map((key) => args[key]).find((value) => typeof value === "string") as string | undefined;
  const file = text("path", "file_path", "absolute_path", "filePath");
  const out = (name: string, value: Record<string, unknown>) => ({ name, arguments: JSON.stringify(value) });

  switch (call.capability) {
    case "exec": {
      const raw = args.command ?? args.cmd;
      const command = Array.isArray(raw) ? raw.join(" ") : raw;
      if (typeof command !== "string") return undefined;
      const cwd = text("workdir", "cwd", "dir_path", "directory");
      return out("Bash", cwd ? { command, cwd } : { command });
    }
    case "read": {
      if (!file) return undefined;
      const offset = args.offset ?? args.start_line ?? args.line_offset;
      const limit = args.limit ?? args.n_lines;
      return out("Read", {
        path: file,
        ...(typeof offset === "number" ? { line_offset: offset } : {}),
        ...(typeof limit === "number" ? { n_lines: limit } : {}),
      });
    }
    case "write": {
      const content = text("content");
      return file && content !== undefined ? out("Write", { path: file, content }) : undefined;
    }
    case "edit": {
      const oldString = text("old_string", "oldText");
      const newString = text("new_string", "newText");
      if (!file || oldString === undefined || newString === undefined) return undefined;
      const replaceAll = args.replace_all === true || args.allow_multiple === true;
      return out("Edit", {
        path: file,
        old_string: oldString,
        new_string: newString,
        ...(replaceAll ? { replace_all: true } : {}),
      });
    }
    default:
      return undefined;
  }
}
