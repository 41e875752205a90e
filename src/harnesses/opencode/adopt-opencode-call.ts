import type { Adopt, CallIntent, WireCall } from "../shared/adopt-call.js";

/**
 * Puts a call made under another harness into opencode's terms, by what it asks for: a command
 * becomes `bash` (its directory as `workdir`), a file read `read`, a whole-file write `write`, a
 * single string replacement `edit` (where the session has `edit` and `write`: not for the models
 * that patch instead). Anything else (patches, plans, searches with other parameters) has no
 * faithful counterpart and is shown as text (undefined here).
 */
export function opencodeAdopt(options: { editsFiles: boolean }): Adopt {
  return (intent) =>
    options.editsFiles || (intent.capability !== "write" && intent.capability !== "edit")
      ? adoptOpencodeCall(intent)
      : undefined;
}

export function adoptOpencodeCall(intent: CallIntent): WireCall | undefined {
  const out = (name: string, value: Record<string, unknown>) => ({ name, arguments: JSON.stringify(value) });
  const file = intent.path;
  switch (intent.capability) {
    case "exec":
      if (intent.command === undefined) return undefined;
      return out(
        "bash",
        intent.cwd ? { command: intent.command, workdir: intent.cwd } : { command: intent.command },
      );
    case "read":
      if (!file) return undefined;
      return out("read", {
        filePath: file,
        ...(intent.offset !== undefined ? { offset: intent.offset } : {}),
        ...(intent.limit !== undefined ? { limit: intent.limit } : {}),
      });
    case "write":
      return file && intent.content !== undefined
        ? out("write", { content: intent.content, filePath: file })
        : undefined;
    case "edit": {
      const { oldString, newString } = intent;
      if (!file || oldString === undefined || newString === undefined) return undefined;
      return out("edit", {
        filePath: file,
        oldString,
        newString,
        ...(intent.replaceAll ? { replaceAll: true } : {}),
      });
    }
    default:
      return undefined;
  }
}
