import path from "node:path";
import type { FsPort } from "../types.js";
import { ApplyPatchError, ioErrorText } from "./apply-patch-error.js";
import type { FileChange } from "./file-change.js";
import { type PatchHunk, parsePatch } from "./parse-patch.js";
import { createStagedFs } from "./staged-fs.js";
import { updateFileContents } from "./update-file-contents.js";

export { ApplyPatchError } from "./apply-patch-error.js";
export type { FileChange } from "./file-change.js";

export interface ApplyPatchOptions {
  patch: string;
  /** Relative paths in the patch resolve against this directory. */
  cwd: string;
  fs: FsPort;
  /** Compute the changes (e.g. for a diff preview) without writing anything. */
  dryRun?: boolean;
}

export interface ApplyPatchResult {
  changes: FileChange[];
  /** Codex's success text for the model: `Success. Updated the following files:` and `A|M|D path` lines. */
  output: string;
}

/**
 * Applies a Codex patch hunk by hunk, in order (the standalone `apply_patch` semantics).
 * Throws `PatchParseError` before touching anything when the text is malformed, and
 * `ApplyPatchError` when a hunk fails; hunks before it stay applied and are listed in `applied`.
 * A dry run follows the same path against a staged view of the files, so it fails exactly where
 * the real run would and can serve as a side-effect-free verification step.
 */
export async function applyPatch(options: ApplyPatchOptions): Promise<ApplyPatchResult> {
  const hunks = parsePatch(options.patch);
  if (hunks.length === 0) throw new ApplyPatchError("No files were modified.");
  const fs = options.dryRun ? createStagedFs(options.fs) : options.fs;
  const changes: FileChange[] = [];
  const summary: Record<"A" | "M" | "D", string[]> = { A: [], M: [], D: [] };
  for (const hunk of hunks) {
    try {
      changes.push(await applyHunk(hunk, options.cwd, fs));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ApplyPatchError(message, changes.slice());
    }
    // The summary names files as the patch wrote them, like Codex.
    if (hunk.type === "add") summary.A.push(hunk.path);
    else if (hunk.type === "delete") summary.D.push(hunk.path);
    else summary.M.push(hunk.movePath ?? hunk.path);
  }
  const lines = (["A", "M", "D"] as const).flatMap((mark) => summary[mark].map((p) => `${mark} ${p}\n`));
  return { changes, output: `Success. Updated the following files:\n${lines.join("")}` };
}

/** Absolute paths a patch would touch, move targets included; `[]` when it does not parse. */
export function patchPaths(patch: string, cwd: string): string[] {
  let hunks: PatchHunk[];
  try {
    hunks = parsePatch(patch);
  } catch {
    return [];
  }
  const paths = hunks.flatMap((hunk) => [
    path.resolve(cwd, hunk.path),
    ...(hunk.type === "update" && hunk.movePath !== undefined ? [path.resolve(cwd, hunk.movePath)] : []),
  ]);
  return [...new Set(paths)];
}

async function applyHunk(hunk: PatchHunk, cwd: string, fs: FsPort): Promise<FileChange> {
  const target = path.resolve(cwd, hunk.path);
  if (hunk.type === "add") {
    const existing = await fs.stat(target);
    const oldText = existing?.isFile ? await fs.readText(target).catch(() => null) : null;
    await write(fs, target, hunk.contents, existing?.isDirectory);
    return { kind: "add", path: target, oldText, newText: hunk.contents };
  }

  if (hunk.type === "delete") {
    const existing = await fs.stat(target);
    if (!existing?.isFile) throw new ApplyPatchError(`Failed to delete file ${target}`);
    const oldText = await fs.readText(target).catch(() => null);
    await fs.remove(target).catch(() => {
      throw new ApplyPatchError(`Failed to delete file ${target}`);
    });
    return { kind: "delete", path: target, oldText, newText: null };
  }

  let original: string;
  try {
    original = await fs.readText(target);
  } catch (error) {
    throw new ApplyPatchError(`Failed to read file to update ${target}: ${ioErrorText(error)}`);
  }
  const newText = updateFileContents({ path: target, original, chunks: hunk.chunks });
  if (hunk.movePath === undefined) {
    await write(fs, target, newText);
    return { kind: "update", path: target, oldText: original, newText };
  }
  const destination = path.resolve(cwd, hunk.movePath);
  await write(fs, destination, newText, (await fs.stat(destination))?.isDirectory);
  // Moving a file onto itself is a plain update; removing it would lose the file.
  if (destination !== target) {
    await fs.remove(target).catch(() => {
      throw new ApplyPatchError(`Failed to remove original ${target}`);
    });
  }
  return { kind: "update", path: target, movePath: destination, oldText: original, newText };
}

async function write(fs: FsPort, target: string, content: string, isDirectory = false): Promise<void> {
  // A staged dry run cannot see that a directory blocks the write, so check up front.
  if (isDirectory) throw new ApplyPatchError(`Failed to write file ${target}`);
  await fs.writeText(target, content).catch(() => {
    throw new ApplyPatchError(`Failed to write file ${target}`);
  });
}
