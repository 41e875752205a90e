import os from "node:os";
import path from "node:path";

/**
 * pi's `resolveToCwd` (`core/tools/path-utils.ts`): a leading `@` is dropped, Unicode spaces
 * become plain spaces, `~` is the home folder, and relative paths resolve against the cwd.
 */
export function resolvePath(file: string, cwd: string): string {
  let expanded = (file.startsWith("@") ? file.slice(1) : file).replace(
    /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g,
    " ",
  );
  if (expanded === "~") expanded = os.homedir();
  else if (expanded.startsWith("~/")) expanded = os.homedir() + expanded.slice(1);
  return path.isAbsolute(expanded) ? expanded : path.resolve(cwd, expanded);
}
