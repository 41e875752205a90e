import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import description from "./enter-plan-mode.md";
import { enterPlanModeSchema } from "./plan-schemas.js";

const Args = z.object({});
type Args = z.infer<typeof Args>;

/**
 * Kimi Code 2.1.0 `EnterPlanMode`: switches the session to plan mode (the editor's mode menu
 * follows), starts an empty plan file as 2.1.0 does, and answers with 2.1.0's workflow naming it.
 */
export function enterPlanModeTool(): Tool<Args> {
  return {
    name: "EnterPlanMode",
    description,
    kind: "think",
    capability: "other",
    parameters: enterPlanModeSchema,
    schema: Args,
    preview: async () => ({ title: "Requesting to enter plan mode" }),
    access: () => ({ type: "none" }),
    async execute(_args, ctx) {
      const { plan } = ctx;
      if (!plan)
        return { output: "Failed to enter plan mode: plan mode is not available here.", isError: true };
      if (plan.active())
        return {
          output: "Plan mode is already active. Use ExitPlanMode when the plan is ready.",
          isError: true,
        };
      await ctx.fs.writeText(plan.file, "");
      plan.enter();
      return {
        output: [
          "Plan mode is now active. Your workflow:",
          "",
          `Plan file: ${plan.file}`,
          "",
          "1. Use read-only tools (Read, Grep, Glob) to investigate the codebase. Use Bash only when needed.",
          "2. Design a concrete, step-by-step plan.",
          "3. Write the plan to the plan file with Write or Edit.",
          "4. When the plan is ready, call ExitPlanMode for user approval.",
          "",
          "Do NOT edit files other than the plan file while plan mode is active.",
          "Use Bash only when needed; Bash follows the normal permission mode and rules.",
        ].join("\n"),
      };
    },
  };
}
