import { z } from "zod";
import { approvePlan, NO_USER_TEXT } from "../../../../tools/ask/ask-questions.js";
import { readPlan } from "../../../../tools/ask/read-plan.js";
import type { Tool } from "../../../../tools/types.js";
import { toolUseError } from "../format.js";
import type { ToolSurface } from "./tool-surface.js";
import { USER_REJECTED } from "./user-rejected.js";

const Args = z.looseObject({ plan: z.string().optional() });
type Args = z.infer<typeof Args>;

const NOT_IN_PLAN_MODE =
  "You are not in plan mode. This tool is only for exiting plan mode after writing a plan. If your plan was already approved, continue with implementation.";

/**
 * Claude Code 2.1.44 `ExitPlanMode`: shows the plan (the plan file's text, or `plan` as older
 * releases sent it, which is then saved to the plan file) in a permission request; approved, the
 * session returns to the mode it had before plan mode and the model gets 2.1.44's text with the
 * plan; rejected, 2.1.44's rejection.
 */
export function exitPlanModeTool(surface: ToolSurface): Tool<Args> {
  return {
    name: "ExitPlanMode",
    description: surface.description,
    kind: "think",
    capability: "plan",
    parameters: surface.parameters,
    schema: Args,
    preview: async () => ({ title: "Present the plan" }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const { plan: mode } = ctx;
      if (!mode?.active()) return { output: toolUseError(NOT_IN_PLAN_MODE), isError: true };
      const plan = args.plan ?? (await readPlan(ctx, mode.file));
      if (args.plan !== undefined) await ctx.fs.writeText(mode.file, args.plan);
      const answer = await approvePlan({
        plan,
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
      });
      if (answer.type === "unavailable") return { output: NO_USER_TEXT, isError: true };
      if (answer.type !== "approved") return { output: USER_REJECTED, isError: true };
      mode.exit();
      if (!plan.trim()) return { output: "User has approved exiting plan mode. You can now proceed." };
      return {
        output: `User has approved your plan. You can now start coding. Start with updating your todo list if applicable

Your plan has been saved to: ${mode.file}
You can refer back to it if needed during implementation.

## Approved Plan:
${plan}`,
      };
    },
  };
}
