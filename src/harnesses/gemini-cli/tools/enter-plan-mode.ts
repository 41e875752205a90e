import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import description from "../descriptions/enter-plan-mode.md";

const Args = z.looseObject({ reason: z.string().optional() });
type Args = z.infer<typeof Args>;

/** 0.61's schema, our description of `reason`. */
const enterPlanModeSchema = {
  type: "object",
  properties: { reason: { type: "string", description: "Why Plan mode is needed, in a short sentence." } },
};

/**
 * Gemini CLI 0.61 `enter_plan_mode`: switches the session to plan mode (the editor's mode menu
 * follows) and answers 0.61's `Switching to Plan mode.`. 0.61 first asks the user to confirm;
 * here the switch shows in the mode menu, where the user can leave it at once.
 */
export function enterPlanModeTool(): Tool<Args> {
  return {
    name: "enter_plan_mode",
    description: description.trimEnd(),
    kind: "think",
    capability: "other",
    parameters: enterPlanModeSchema,
    schema: Args,
    preview: async (args) => ({ title: args.reason || "Initiating Plan Mode" }),
    access: () => ({ type: "none" }),
    async execute(_args, ctx) {
      if (!ctx.plan) return { output: "Plan mode is not available in this session.", isError: true };
      ctx.plan.enter();
      return { output: "Switching to Plan mode." };
    },
  };
}
