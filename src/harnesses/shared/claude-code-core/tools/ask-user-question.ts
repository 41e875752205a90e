import { z } from "zod";
import { askQuestions, NO_USER_TEXT } from "../../../../tools/ask/ask-questions.js";
import type { QuestionAnswer } from "../../../../tools/ask/types.js";
import type { Tool } from "../../../../tools/types.js";
import type { ToolSurface } from "./tool-surface.js";
import { USER_REJECTED } from "./user-rejected.js";

const Option = z.object({ label: z.string(), description: z.string() });
const Args = z.object({
  questions: z
    .array(
      z.object({
        question: z.string(),
        header: z.string(),
        options: z.array(Option).min(2).max(4),
        multiSelect: z.boolean().default(false),
      }),
    )
    .min(1)
    .max(4),
  answers: z.record(z.string(), z.string()).optional(),
  metadata: z.object({ source: z.string().optional() }).optional(),
});
type Args = z.infer<typeof Args>;

/**
 * Claude Code 2.1.44 `AskUserQuestion`: the questions go to the user (a form, or one permission
 * request per question) and the answers come back as 2.1.44 words them, each question with its
 * chosen labels (or the user's own text) joined by commas.
 */
export function askUserQuestionTool(surface: ToolSurface): Tool<Args> {
  return {
    name: "AskUserQuestion",
    description: surface.description,
    kind: "think",
    capability: "other",
    parameters: surface.parameters,
    schema: Args,
    preview: async (args) => ({ title: args.questions.map((q) => q.header || q.question).join(", ") }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const outcome = await askQuestions({
        questions: args.questions.map((q, i) => ({ id: String(i), ...q })),
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
      });
      if (outcome.type === "unavailable") return { output: NO_USER_TEXT, isError: true };
      if (outcome.type !== "answered") return { output: USER_REJECTED, isError: true };
      const pairs = outcome.answers.map((a) => `"${a.question}"="${answerText(a)}"`);
      return {
        output: `User has answered your questions: ${pairs.join(", ")}. You can now continue with the user's answers in mind.`,
      };
    },
  };
}

function answerText(answer: QuestionAnswer): string {
  return [...answer.selected, ...(answer.other ? [answer.other] : [])].join(", ");
}
