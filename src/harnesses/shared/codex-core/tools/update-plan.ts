import { z } from "zod";
import type { Tool } from "../../../../tools/types.js";
import { updatePlanSchema } from "../tool-schemas.js";
import description from "./update-plan.md";

const Args = z.looseObject({
  explanation: z.string().nullish(),
  plan: z.array(z.object({ step: z.string(), status: z.enum(["pending", "in_progress", "completed"]) })),
});
type Args = z.infer<typeof Args>;

/** Codex `update_plan`: no side effect beyond the editor's plan view. */
export function updatePlanTool(): Tool<Args> {
  return {
    name: "update_plan",
    description,
    kind: "think",
    capability: "plan",
    parameters: updatePlanSchema,
    schema: Args,
    preview: async () => ({ title: "Update plan" }),
    access: () => ({ type: "none" }),
    async execute(args) {
      return {
        output: "Plan updated",
        plan: args.plan.map((item) => ({
          content: item.step,
          status: item.status,
          priority: "medium" as const,
        })),
      };
    },
  };
}
