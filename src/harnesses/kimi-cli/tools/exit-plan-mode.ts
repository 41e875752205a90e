import { z } from "zod";
import { approvePlan } from "../../../tools/ask/ask-questions.js";
import { readPlan } from "../../../tools/ask/read-plan.js";
import type { Tool } from "../../../tools/types.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { exitPlanModeSchema } from "../tool-schemas.js";
import description from "./exit-plan-mode.md";

const RESERVED = new Set(["approve", "reject", "reject and exit", "revise"]);
const Option = z.object({
  label: z.string().refine((label) => !RESERVED.has(label.trim().toLowerCase()), {
    message:
      "Option label is reserved. Do not use 'Approve', 'Reject', 'Reject And Exit', 'Revise' as option labels.",
  }),
  description: z.string().default(""),
});
const Args = z.object({
  options: z
    .array(Option)
    .max(3)
    .nullable()
    .optional()
    .refine((options) => !options || new Set(options.map((o) => o.label)).size === options.length, {
      message: "Option labels must be unique. Found duplicate label(s).",
    }),
});
type Args = z.infer<typeof Args>;

/**
 * Kimi CLI 1.49.0 `ExitPlanMode` (`tools/plan/__init__.py`): shows the plan file for approval,
 * the call's approaches (two or three) as approvals of their own, and answers with its texts:
 * approved (with the approach picked and the plan), revision asked for, rejected and out of plan
 * mode, dismissed.
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
        return kimiError("Not in plan mode. ExitPlanMode is only available during plan mode.");
      const plan = await readPlan(ctx, mode.file);
      if (!plan)
        return kimiError(
          `No plan file found. Write your plan to ${mode.file} first, then call ExitPlanMode.`,
        );
      const approaches =
        args.options && args.options.length >= 2 ? args.options.map((o) => o.label) : undefined;
      const verdict = await approvePlan({
        plan,
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
        approaches,
        rejectAndExit: true,
      });
      switch (verdict.type) {
        case "unavailable":
          return kimiError("The connected client does not support plan mode. Do NOT call this tool again.");
        case "cancelled":
          return kimiResult({
            message: "Dismissed",
            output:
              "User dismissed without choosing. Plan mode remains active. Continue working on your plan or call ExitPlanMode again when ready.",
          });
        case "revise":
          return kimiResult({
            message: "Plan revision requested",
            output:
              "User wants to revise the plan. Stay in plan mode. Wait for the user's next message with feedback before revising.",
          });
        case "reject-and-exit":
          mode.exit();
          return kimiError(
            "Plan rejected by user. Plan mode deactivated. All tools are now available. Wait for the user's next message.",
          );
        case "approved": {
          mode.exit();
          if (verdict.approach)
            return kimiResult({
              message: `Plan approved: ${verdict.approach}`,
              output: `Plan approved by user. Selected approach: "${verdict.approach}"\nPlan mode deactivated. All tools are now available.\nPlan saved to: ${mode.file}\n\nIMPORTANT: Execute ONLY the selected approach "${verdict.approach}". Ignore other approaches in the plan.\n\n## Approved Plan:\n${plan}`,
            });
          return kimiResult({
            message: "Plan approved",
            output: `Plan approved by user. Plan mode deactivated. All tools are now available.\nPlan saved to: ${mode.file}\n\n## Approved Plan:\n${plan}`,
          });
        }
      }
    },
  };
}
