import { z } from "zod";
import { approvePlan } from "../../../tools/ask/ask-questions.js";
import { readPlan } from "../../../tools/ask/read-plan.js";
import type { Tool } from "../../../tools/types.js";
import { QUESTIONS_UNSUPPORTED } from "./ask-user-question.js";
import description from "./exit-plan-mode.md";
import { exitPlanModeSchema } from "./plan-schemas.js";

const Args = z.object({
  options: z
    .array(z.object({ label: z.string().min(1).max(80), description: z.string().default("") }))
    .min(1)
    .max(3)
    .optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi Code 2.1.0 `ExitPlanMode`: shows the plan file for review (with the call's approaches as
 * approvals of their own, from two on) and answers with 2.1.0's texts: approved (the approach
 * picked, the plan), revisions asked for, rejected (plan mode ends), dismissed.
 */
export function exitPlanModeTool(): Tool<Args> {
  return {
    name: "ExitPlanMode",
    description,
    kind: "think",
    capability: "plan",
    parameters: exitPlanModeSchema,
    schema: Args,
    preview: async () => ({ title: "Presenting plan and exiting plan mode" }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const { plan: mode } = ctx;
      if (!mode?.active())
        return {
          output:
            "ExitPlanMode can only be called while plan mode is active. Use EnterPlanMode (or /plan) first.",
          isError: true,
        };
      const plan = await readPlan(ctx, mode.file);
      if (!plan.trim())
        return {
          output: `No plan file found. Write your plan to ${mode.file} first, then call ExitPlanMode.`,
          isError: true,
        };
      const verdict = await approvePlan({
        plan,
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
        approaches: args.options?.map((o) => o.label),
        rejectAndExit: true,
      });
      switch (verdict.type) {
        case "unavailable":
          return { output: QUESTIONS_UNSUPPORTED, isError: true };
        case "cancelled":
          return { output: "Plan approval dismissed. Plan mode remains active." };
        case "revise":
          return { output: "User requested revisions. Plan mode remains active." };
        case "reject-and-exit":
          mode.exit();
          return { output: "Plan rejected by user. Plan mode deactivated.", isError: true };
        case "approved": {
          mode.exit();
          const chosen = verdict.approach
            ? `Selected approach: ${verdict.approach}\nExecute ONLY the selected approach. Do not execute any unselected alternatives.\n\n`
            : "";
          return {
            output: `Exited plan mode. ${chosen}Plan mode deactivated. All tools are now available.\nPlan saved to: ${mode.file}\n\n## Approved Plan:\n${plan}`,
          };
        }
      }
    },
  };
}
