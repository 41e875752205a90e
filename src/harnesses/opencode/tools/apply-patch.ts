import path from "node:path";
import { z } from "zod";
import { applyPatch, patchPaths } from "../../../tools/apply-patch/apply-patch.js";
import { parsePatch } from "../../../tools/apply-patch/parse-patch.js";
import type { Tool } from "../../../tools/types.js";
import { applyPatchSchema } from "../tool-schemas.js";
import description from "./apply-patch.md";

const Args = z.looseObject({ patchText: z.string() });
type Args = z.infer<typeof Args>;

/**
 * opencode `apply_patch` (1.18.33 `tool/apply_patch.ts`), offered to `gpt-` models in place of
 * `edit` and `write`: every hunk is checked first and nothing is written when one fails
 * (`apply_patch verification failed: …`); then all are applied and listed as `A`/`M`/`D` lines
 * relative to the workspace, in the patch's order.
 */
export function applyPatchTool(): Tool<Args> {
  return {
    name: "apply_patch",
    description: description.trimEnd(),
    kind: "edit",
    capability: "patch",
    parameters: applyPatchSchema,
    schema: Args,
    preview: async (args, ctx) => ({
      title: "apply_patch",
      locations: patchPaths(args.patchText, ctx.cwd).map((file) => ({ path: file })),
    }),
    access: (args, ctx) => ({ type: "write", paths: patchPaths(args.patchText, ctx.cwd) }),
    async execute(args, ctx) {
      const fail = (output: string) => ({ output, isError: true });
      if (!args.patchText) return fail("patchText is required");
      const options = { patch: args.patchText, cwd: ctx.cwd, fs: ctx.fs };
      try {
        if (parsePatch(args.patchText).length === 0) {
          // Only the two envelope lines is opencode's empty patch; anything else has no hunks.
          const lines = args.patchText.replace(/\r\n?/g, "\n").trim().split("\n");
          return fail(
            lines.length === 2
              ? "patch rejected: empty patch"
              : "apply_patch verification failed: no hunks found",
          );
        }
        await applyPatch({ ...options, dryRun: true });
      } catch (error) {
        return fail(`apply_patch verification failed: ${errorText(error)}`);
      }
      const { changes } = await applyPatch(options);
      const root = ctx.roots[0] ?? ctx.cwd;
      const lines = changes.map((change) => {
        const mark = change.kind === "add" ? "A" : change.kind === "delete" ? "D" : "M";
        return `${mark} ${path.relative(root, change.movePath ?? change.path).replaceAll("\\", "/")}`;
      });
      return {
        output: `Success. Updated the following files:\n${lines.join("\n")}`,
        display: changes.map((change) => ({
          type: "diff" as const,
          path: change.movePath ?? change.path,
          oldText: change.oldText,
          newText: change.newText ?? "",
        })),
      };
    },
  };
}

/** opencode interpolates the thrown Error itself, so its name leads (`Error: …`). */
function errorText(error: unknown): string {
  return `Error: ${error instanceof Error ? error.message : String(error)}`;
}
