import path from "node:path";
import type { Tool } from "../../../tools/types.js";
import { writeTool as piWriteTool } from "../../shared/pi-core/tools/write.js";

/** Windows device names (any case, any extension): writing one is refused everywhere. */
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/;

/**
 * pi's `write` behind little-coder's write guard (`write-guard`): the path is normalized first
 * (`/name` with no folder means the cwd's `name`; relative paths are the cwd's), then a write
 * to a reserved device name or to a file that exists is refused with the guard's text, which
 * spells out the edit call to make instead. Small models that rewrite whole files break them;
 * the guard is what makes little-coder steer them to edit.
 */
export function writeTool(): Tool<{ path: string; content: string }> {
  const pi = piWriteTool();
  const normalize = <A extends { path: string }>(args: A, cwd: string): A => ({
    ...args,
    path: normalizeWritePath(args.path, cwd),
  });
  return {
    ...pi,
    preview: (args, ctx) => pi.preview(normalize(args, ctx.cwd), ctx),
    access: (args, ctx) => pi.access(normalize(args, ctx.cwd), ctx),
    async execute(args, ctx) {
      const resolved = normalizeWritePath(args.path, ctx.cwd);
      const refusal = writeRefusal(resolved, (await ctx.fs.stat(resolved)) !== undefined);
      if (refusal) return { output: refusal, isError: true };
      return pi.execute({ ...args, path: resolved }, ctx);
    },
  };
}

function normalizeWritePath(file: string, cwd: string): string {
  if (/^\/[^/]+$/.test(file)) return path.join(cwd, file.slice(1));
  return path.isAbsolute(file) ? file : path.join(cwd, file);
}

/** The guard's verdict on a resolved path: its refusal text, or undefined when the write may go ahead. */
function writeRefusal(resolved: string, exists: boolean): string | undefined {
  const base = path.basename(resolved);
  const stem = base.toLowerCase().split(".")[0] ?? "";
  if (RESERVED.test(stem)) {
    return [
      `Write refused — "${base}" is a reserved Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9). Writing it creates an undeletable junk file on Windows and is almost never intended.`,
      "",
      `If you wanted to discard output, don't write a file at all. If you wanted a real file, choose a normal name (e.g. "notes.txt", "output.log").`,
    ].join("\n");
  }
  if (!exists) return undefined;
  return [
    `Write refused — ${resolved} already exists.`,
    "",
    "Write is for creating NEW files only. To change an existing file, use Edit:",
    `  {"name": "edit", "input": {"path": "${resolved}", "edits": [{"oldText": "<exact text currently in the file>", "newText": "<replacement text>"}]}}`,
    "",
    "If you do not already know the file's current content, Read it first to get the exact text for oldText (whitespace and indentation must match). Include enough surrounding context (2-3 lines) to make oldText unique in the file.",
    "",
    "For multiple changes, pass multiple entries in edits[] — one per location. Do NOT retry Write; it will be refused again.",
  ].join("\n");
}
