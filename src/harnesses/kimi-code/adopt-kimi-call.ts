import type { CallIntent, WireCall } from "../shared/adopt-call.js";

/**
 * Puts a call made under another harness into Kimi Code's terms, by what it asks for: a command
 * becomes `Bash`, a file read `Read`, a whole-file write `Write`, a single string replacement
 * `Edit`. Anything else (patches, plans, searches with other parameters) has no faithful
 * counterpart and is shown as text (undefined here).
 */
export function adoptKimiCall(intent: CallIntent): WireCall | undefined {
  const out = (name: string, value: Record<string, unknown>) => ({ name, arguments: JSON.stringify(value) });
  const file = intent.path;
  switch (intent.capability) {
    case "exec": {
      if (intent.command === undefined) return undefined;
      return out(
        "Bash",
        intent.cwd ? { command: intent.command, cwd: intent.cwd } : { command: intent.command },
      );
    }
    case "read":
      if (!file) return undefined;
      return out("Read", {
        path: file,
        ...(intent.offset !== undefined ? { line_offset: intent.offset } : {}),
        ...(intent.limit !== undefined ? { n_lines: intent.limit } : {}),
      });
    case "write":
      return file && intent.content !== undefined
        ? out("Write", { path: file, content: intent.content })
        : undefined;
    case "edit": {
      const { oldString, newString } = intent;
      if (!file || oldString === undefined || newString === undefined) return undefined;
      return out("Edit", {
        path: file,
        old_string: oldString,
        new_string: newString,
        ...(intent.replaceAll ? { replace_all: true } : {}),
      });
    }
    default:
      return undefined;
  }
}
