import type { ToolContext } from "../../../tools/types.js";

/**
 * 1.49.0's plan-mode rule for WriteFile and StrReplaceFile (`tools/file/plan_mode.py`): while plan
 * mode is on, only the current plan file may be changed, and changing it needs no approval.
 */
export function planTarget(file: string, ctx: ToolContext): { error?: string; isPlan: boolean } {
  if (!ctx.plan?.active()) return { isPlan: false };
  if (file !== ctx.plan.file)
    return {
      isPlan: false,
      error: `Plan mode is active. You may only edit the current plan file: \`${ctx.plan.file}\`.`,
    };
  return { isPlan: true };
}
