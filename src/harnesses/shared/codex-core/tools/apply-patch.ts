import { z } from "zod";
import { patchPaths } from "../../../../tools/apply-patch/apply-patch.js";
import type { Tool } from "../../../../tools/types.js";
import { applyPatchSchema } from "../tool-schemas.js";
import description from "./apply-patch.md";
import { runPatch } from "./run-patch.js";

const Args = z.looseObject({ input: z.string().min(1) });
type Args = z.infer<typeof Args>;

/**
 * Codex `apply_patch` in its function form (one string argument); the codex harness renders it
 * as the freeform tool for its gpt-5 family. `verification`: see `runPatch.apply`.
 */
export function applyPatchTool(options: { verification?: boolean } = {}): Tool<Args> {
  return {
    name: "apply_patch",
    description,
    kind: "edit",
    capability: "patch",
    parameters: applyPatchSchema,
    schema: Args,
    preview: (args, ctx) => runPatch.preview(args.input, ctx.cwd, ctx),
    access: (args, ctx) => ({ type: "write", paths: patchPaths(args.input, ctx.cwd) }),
    execute: (args, ctx) => runPatch.apply(args.input, ctx.cwd, ctx, options),
  };
}
