import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { updatePlanSchema } from "../tool-schemas.js";
import { readStatus, type Status } from "./checklist-state.js";
import description from "./update-plan.md";

const Args = z.looseObject({
  explanation: z.string().optional(),
  plan: z.array(z.looseObject({ step: z.string(), status: z.string().optional() })),
});
type Args = z.infer<typeof Args>;

/**
 * CodeWhale `update_plan` (0.8.44 `tools/plan.rs`): replaces the strategy, keeps one step in
 * progress (later ones go back to pending), and answers with the counts, the percentage done
 * (rounded down) and the plan as indented JSON. Stateless: the answer depends on the call alone.
 */
export function updatePlanTool(): Tool<Args> {
  return {
    name: "update_plan",
    description: description.trimEnd(),
    kind: "think",
    capability: "plan",
    parameters: updatePlanSchema,
    schema: Args,
    preview: async (args) => ({ title: `update_plan (${args.plan.length} steps)` }),
    access: () => ({ type: "none" }),
    async execute(args) {
      let seen = false;
      const items = args.plan.map((item) => {
        let status: Status = readStatus(item.status) ?? "pending";
        if (status === "in_progress") {
          if (seen) status = "pending";
          seen = true;
        }
        return { step: item.step, status };
      });
      const count = (s: Status) => items.filter((i) => i.status === s).length;
      const percent = items.length === 0 ? 0 : Math.floor((count("completed") * 100) / items.length);
      const explanation = args.explanation?.trim() ? args.explanation : null;
      const json = JSON.stringify({ explanation, items }, null, 2);
      return {
        output: `Plan updated: ${count("pending")} pending, ${count("in_progress")} in progress, ${count("completed")} completed (${percent}% done)\n${json}`,
      };
    },
  };
}
