import type { ToolContext } from "../types.js";

/** The plan file's text; empty when the model has not written one. */
export async function readPlan(ctx: ToolContext, file: string): Promise<string> {
  try {
    return await ctx.fs.readText(file);
  } catch {
    return "";
  }
}
