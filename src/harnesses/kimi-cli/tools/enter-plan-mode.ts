import { z } from "zod";
import { askQuestions } from "../../../tools/ask/ask-questions.js";
import type { Tool } from "../../../tools/types.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { enterPlanModeSchema } from "../tool-schemas.js";
import description from "./enter-plan-mode.md";

const Args = z.object({});
type Args = z.infer<typeof Args>;

const UNSUPPORTED = "The connected client does not support plan mode. Do NOT call this tool again.";

/**
 * Kimi CLI 1.49.0 `EnterPlanMode` (`tools/plan/enter.py`): asks the user "Enter plan mode?" (Yes /
 * No) and answers with its texts: on, declined or dismissed. On, the session's mode follows (the
 * editor's mode menu too) and the plan file is the session's.
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
      if (plan?.active()) return kimiError("Already in plan mode. Use ExitPlanMode when your plan is ready.");
      if (!plan) return kimiError("EnterPlanMode is not properly initialized.");
      const outcome = await askQuestions({
        questions: [
          {
            id: "enter",
            question: "Enter plan mode?",
            header: "Plan Mode",
            options: [
              { label: "Yes", description: "Enter plan mode to explore and design an approach" },
              { label: "No", description: "Skip planning, start implementing now" },
            ],
            multiSelect: false,
          },
        ],
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
      });
      if (outcome.type === "unavailable") return kimiError(UNSUPPORTED);
      const chosen = outcome.type === "answered" ? outcome.answers.flatMap((a) => a.selected) : [];
      if (chosen.length === 0)
        return kimiResult({
          message: "Dismissed",
          output: "User dismissed without choosing. Proceed with implementation directly.",
        });
      if (!chosen.includes("Yes"))
        return kimiResult({
          message: "Declined",
          output:
            "User declined to enter plan mode. Please check with user whether to proceed with implementation directly.",
        });
      plan.enter();
      return kimiResult({
        message: "Plan mode on",
        output: [
          "Plan mode activated. You MUST NOT edit code files — only read and plan.",
          `Plan file: ${plan.file}`,
          "Workflow: identify key questions about the codebase → use Agent(subagent_type='explore') to investigate if needed → design approach → modify the plan file with WriteFile or StrReplaceFile (create it with WriteFile first if it does not exist) → call ExitPlanMode.",
          "Use AskUserQuestion only to clarify missing requirements or choose between approaches.",
          "Do NOT use AskUserQuestion to ask about plan approval.",
        ].join("\n"),
      });
    },
  };
}
