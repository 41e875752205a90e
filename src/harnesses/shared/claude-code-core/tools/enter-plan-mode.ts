import { z } from "zod";
import type { Tool } from "../../../../tools/types.js";
import { toolUseError } from "../format.js";
import type { ToolSurface } from "./tool-surface.js";

const Args = z.object({});
type Args = z.infer<typeof Args>;

/** 2.1.44's result: its message and the steps it appends (without the interview phase). */
export const ENTERED_PLAN_MODE = `Entered plan mode. You should now focus on exploring the codebase and designing an implementation approach.

In plan mode, you should:
1. Thoroughly explore the codebase to understand existing patterns
2. Identify similar features and architectural approaches
3. Consider multiple approaches and their trade-offs
4. Use AskUserQuestion if you need to clarify the approach
5. Design a concrete implementation strategy
6. When ready, use ExitPlanMode to present your plan for approval

Remember: DO NOT write or edit any files yet. This is a read-only exploration and planning phase.`;

/**
 * Claude Code 2.1.44 `EnterPlanMode`: switches the session to plan mode (the editor's mode menu
 * follows) and answers with 2.1.44's text. 2.1.44 first asks "Enter plan mode?"; here the switch
 * is shown in the mode menu, where the user can leave it at once.
 */
export function enterPlanModeTool(surface: ToolSurface): Tool<Args> {
  return {
    name: "EnterPlanMode",
    description: surface.description,
    kind: "think",
    capability: "other",
    parameters: surface.parameters,
    schema: Args,
    preview: async () => ({ title: "Enter plan mode" }),
    access: () => ({ type: "none" }),
    async execute(_args, ctx) {
      if (!ctx.plan) return { output: toolUseError("Plan mode is not available here"), isError: true };
      ctx.plan.enter();
      return { output: ENTERED_PLAN_MODE };
    },
  };
}
