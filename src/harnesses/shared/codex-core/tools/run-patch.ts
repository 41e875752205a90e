import path from "node:path";
import type { DisplayContent } from "../../../../store/events.js";
import { ApplyPatchError, applyPatch, type FileChange } from "../../../../tools/apply-patch/apply-patch.js";
import type { ToolContext, ToolPreview, ToolResult } from "../../../../tools/types.js";
import { countLines, formatExecOutput } from "../truncate.js";

/** Applies a Codex patch for both the `apply_patch` tool and shell-intercepted patches. */
export const runPatch = {
  async preview(patch: string, cwd: string, ctx: ToolContext): Promise<ToolPreview> {
    try {
      const { changes } = await applyPatch({ patch, cwd, fs: ctx.fs, dryRun: true });
      return {
        title: titleOf(changes, cwd),
        locations: changes.map((c) => ({ path: c.movePath ?? c.path })),
        display: diffs(changes),
      };
    } catch {
      // The real run reports the problem to the model; the preview only needs a title.
      return { title: "apply_patch" };
    }
  },

  /**
   * Codex reports patches in its exec output format (exit code, wall time, output). With
   * `verification`, a patch that fails before changing anything answers as Codex 0.171 does,
   * `apply_patch verification failed: <why>`, without that format.
   */
  async apply(
    patch: string,
    cwd: string,
    ctx: ToolContext,
    options: { verification?: boolean } = {},
  ): Promise<ToolResult> {
    const started = performance.now();
    const report = (exitCode: number, output: string) =>
      formatExecOutput({
        exitCode,
        durationMs: performance.now() - started,
        output,
        totalLines: countLines(output),
        timedOut: false,
      });
    try {
      const { changes, output } = await applyPatch({ patch, cwd, fs: ctx.fs });
      return { output: report(0, output), display: diffs(changes) };
    } catch (error) {
      const applied = error instanceof ApplyPatchError ? error.applied : [];
      const message = error instanceof Error ? error.message : String(error);
      const verification = options.verification === true && applied.length === 0;
      return {
        output: verification ? `apply_patch verification failed: ${message}` : report(1, message),
        isError: true,
        display: [...diffs(applied), { type: "text", text: message }],
      };
    }
  },
};

function diffs(changes: FileChange[]): DisplayContent[] {
  return changes.map((change) => ({
    type: "diff",
    path: change.movePath ?? change.path,
    oldText: change.kind === "add" ? null : change.oldText,
    newText: change.newText ?? "",
  }));
}

function titleOf(changes: FileChange[], cwd: string): string {
  const names = changes.map((c) => path.relative(cwd, c.movePath ?? c.path) || c.path);
  const verb = changes.every((c) => c.kind === "add")
    ? "Create"
    : changes.every((c) => c.kind === "delete")
      ? "Delete"
      : "Edit";
  return `${verb} ${names.join(", ")}`;
}
